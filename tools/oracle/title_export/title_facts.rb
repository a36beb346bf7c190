# frozen_string_literal: true

require_relative 'extensions'
require_relative 'overrides'
require_relative 'finance_facts'

module TitleExport
  # The facts of a title in railnote's title.json format (schema: src/engine/title/facts.rs, the
  # serde structs `TitleFile`, `PhaseDef`, `TrainDef`, `Ability`, `CorpDef`, `KindDef`, ...).
  # Facts come from the reference game class's constants and from game objects built with them;
  # what the schema cannot hold goes to the extensions (see Extensions); behaviour flags that
  # are not reference facts come from the title's override file.
  class TitleFacts
    EXT = Extensions::EXT
    ADDED = Extensions::ADDED

    # Top-level order of title.json.
    ORDER = %w[name hooks currency bank_cash players starting_cash cert_limit optional_rules optional_bank_cash
               random_setup market phases trains companies corporations corporation_kinds auction
               home_token_timing minor_auction major_par_phase tile_lays operating capitalization
               sell_buy_order must_sell_in_blocks stock game_end].freeze
    OPERATING_ORDER = %w[steps must_buy_train one_train_per_type_from_depot only_normal_purchase_after_trade_in
                         dividend_moves issue_shares emergency_sales emergency_from_others
                         home_token_first bankruptcy pool_dividends_to_corporation].freeze
    # Values the schema's enums and flags hold, per field.
    TRAIN_EVENTS = %w[close_companies corporations_can_merge majors_can_ipo minors_cannot_start
                      train_trade_allowed].freeze
    TILE_LAY_WHEN = %w[track owning_corp_or_turn].freeze
    MARKET_LETTERS = 'pyobec'
    # Reference rule switches listed for every title (with the others that differ from the
    # reference's defaults), so the engine sees where a title departs from 1836Jr30's rules.
    SETTINGS = %i[TRACK_RESTRICTION MUST_SELL_IN_BLOCKS SELL_AFTER SELL_MOVEMENT POOL_SHARE_DROP
                  SOLD_OUT_INCREASE EBUY_PRES_SWAP EBUY_DEPOT_TRAIN_MUST_BE_CHEAPEST EBUY_SELL_MORE_THAN_NEEDED
                  EBUY_SELL_MORE_THAN_NEEDED_SETS_PURCHASE_MIN MIN_BID_INCREMENT ONLY_HIGHEST_BID_COMMITTED
                  BANKRUPTCY_ENDS_GAME_AFTER CERT_LIMIT_INCLUDES_PRIVATES NEXT_SR_PLAYER_ORDER
                  DISCARDED_TRAINS ALLOW_TRAIN_BUY_FROM_OTHERS].freeze
    # Constants exported elsewhere (core fields, the map) or about presentation only.
    NOT_SETTINGS = %i[GAME_END_CHECK BANK_CASH CURRENCY_FORMAT_STR STARTING_CASH HEXES LAYOUT AXES TRAINS
                      COMPANIES CORPORATIONS MINORS PHASES LOCATION_NAMES TILES MARKET CERT_LIMIT
                      TILE_RESERVATION_BLOCKS_OTHERS SELL_BUY_ORDER CAPITALIZATION MUST_BUY_TRAIN
                      HOME_TOKEN_TIMING EBUY_FROM_OTHERS MUST_BID_INCREMENT_MULTIPLE TILE_LAYS
                      MARKET_SHARE_LIMIT EVENTS_TEXT STATUS_TEXT MARKET_TEXT ASSIGNMENT_TOKENS
                      OPTIONAL_RULES GAME_VARIANTS PLAYER_RANGE DEV_STAGE META].freeze

    # Phase statuses that are rules, with the phase field each becomes; the others (display
    # texts: 1856's `escrow`, `facing_2` ...) stay in the extensions as `status`.
    PHASE_STATUS_FIELDS = {
      'can_buy_companies' => 'can_buy_companies',
      'no_loans' => 'no_loans',
      'upgradeable_towns' => 'upgradeable_towns',
    }.freeze
    # Phase fields the schema has.
    CORE_PHASE_FIELDS = %w[can_buy_companies].freeze
    COLOURS = %w[white yellow green brown gray blue red].freeze

    def initialize(games, overrides)
      @games = games
      @game = games.default
      @klass = @game.class
      @overrides = overrides
      @finance = FinanceFacts.new(games)
    end

    def document
      doc = {
        'name' => @klass.title,
        'currency' => currency,
        'bank_cash' => @game.send(:bank_starting_cash),
        'players' => { 'min' => player_range.first, 'max' => player_range.last },
        'starting_cash' => per_player_count(@klass::STARTING_CASH, 'starting_cash'),
        'cert_limit' => per_player_count(@klass::CERT_LIMIT, 'cert_limit'),
        'optional_rules' => optional_rule_names,
      }
      bank = optional_bank_cash
      doc['optional_bank_cash'] = bank unless bank.empty?
      doc['market'] = market
      doc['phases'] = phases
      doc['trains'] = trains
      doc['companies'] = companies
      doc['corporations'] = corporations
      doc['corporation_kinds'] = corporation_kinds
      doc['auction'] = auction
      home_token_timing(doc)
      doc['tile_lays'] = tile_lays
      doc['operating'] = operating
      doc['capitalization'] = enum(@klass::CAPITALIZATION, %w[full incremental], 'capitalization')
      sell_buy_order(doc)
      doc['must_sell_in_blocks'] = true if @klass::MUST_SELL_IN_BLOCKS
      doc['game_end'] = @klass::GAME_END_CHECK.to_h { |k, v| [k.to_s, v.to_s] }
      # Loans, escrow, destinations, the national: the schema has none of them yet.
      doc[EXT] = (doc[EXT] || {}).merge(@finance.title_fields)
      doc = apply_overrides(doc)
      doc[EXT] = top_level_extensions(doc)
      doc.delete(EXT) if doc[EXT].empty?
      doc
    end

    def player_range
      @klass::PLAYER_RANGE
    end

    def currency
      @klass::CURRENCY_FORMAT_STR.sub('%s', '').gsub(/\A[[:space:]]+|[[:space:]]+\z/, '')
    end

    def per_player_count(value, what)
      return (player_range.first..player_range.last).to_h { |n| [n.to_s, value] } if value.is_a?(Integer)
      raise "#{what}: not a number per player count" unless value.values.all?(Integer)

      value.to_h { |n, v| [n.to_s, v] }
    end

    def optional_rule_names
      @klass::OPTIONAL_RULES.map { |rule| rule[:sym].to_s }
    end

    def optional_bank_cash
      @games.rule_games.filter_map do |rule, game|
        cash = game.send(:bank_starting_cash)
        [rule, cash] unless cash == @game.send(:bank_starting_cash)
      end.to_h
    end

    def market
      @game.send(:game_market).map do |row|
        row.map do |cell|
          letters = cell.to_s.sub(/\A\d+/, '')
          unless letters.chars.all? { |c| MARKET_LETTERS.include?(c) }
            raise "market cell #{cell}: letters the schema does not know (extend parse_cell)"
          end

          cell.to_s
        end
      end
    end

    def phases
      list = @game.send(:game_phases).each_with_index.map { |phase, index| phase_def(phase, index) }
      list + rule_only(list, :game_phases) { |phase, index| phase_def(phase, index) }
    end

    def phase_def(phase, index)
      out = { 'name' => phase[:name].to_s, 'on' => index.zero? ? nil : phase[:on] }
      ext = {}
      limit = phase[:train_limit]
      if limit.is_a?(Integer) && per_kind_limits?
        out['train_limit'] = limit
        out['minor_train_limit'] = limit
      elsif limit.is_a?(Hash)
        out['train_limit'] = limit[:major] || limit['major']
        out['minor_train_limit'] = limit[:minor] || limit['minor']
        others = limit.keys.map(&:to_s) - %w[major minor]
        ext['train_limit'] = limit.transform_keys(&:to_s) unless others.empty?
      else
        out['train_limit'] = limit
      end
      tiles = phase[:tiles].map(&:to_s)
      out['tiles'] = tiles.select { |c| COLOURS.include?(c) }
      ext['tiles'] = tiles unless out['tiles'] == tiles
      out['operating_rounds'] = phase[:operating_rounds]
      status = (phase[:status] || []).map(&:to_s)
      PHASE_STATUS_FIELDS.each do |name, field|
        next unless status.include?(name)

        (CORE_PHASE_FIELDS.include?(field) ? out : ext)[field] = true
      end
      others = status - PHASE_STATUS_FIELDS.keys
      ext['status'] = others unless others.empty?
      ext['events'] = phase[:events] if phase[:events]
      ext['on'] = phase[:on] if phase[:on].is_a?(Array)
      rule_presence(ext, phase[:name].to_s, :game_phases)
      out[EXT] = ext unless ext.empty?
      out
    end

    # Elements (phases or trains) some optional rule brings that the default game has not, as
    # added elements with `only_with_rule`.
    def rule_only(list, method)
      names = list.map { |e| e['name'] }
      @games.rule_games.flat_map do |rule, game|
        game.send(method).each_with_index.filter_map do |element, index|
          next if names.include?(element[:name].to_s)

          names << element[:name].to_s
          out = yield(element, index, game)
          out[EXT] = (out[EXT] || {}).merge('only_with_rule' => rule)
          out.merge(ADDED => true)
        end
      end
    end

    # `not_with_rule` for a default element that an optional rule removes.
    def rule_presence(ext, name, method)
      return if ext['only_with_rule']

      @games.rule_games.each do |rule, game|
        next if game.send(method).any? { |e| e[:name].to_s == name }
        next unless @game.send(method).any? { |e| e[:name].to_s == name }

        ext['not_with_rule'] = rule
      end
    end

    # Whether some phase limits minors' trains apart from majors' (then every phase says it).
    def per_kind_limits?
      @game.send(:game_phases).any? { |phase| phase[:train_limit].is_a?(Hash) }
    end

    def trains
      list = @game.send(:game_trains).map { |train| train_def(train, @game) }
      list + rule_only(list, :game_trains) { |train, _, game| train_def(train, game) }
    end

    def train_def(train, game)
      unlimited = train[:num] == 'unlimited'
      out = { 'name' => train[:name], 'distance' => train[:distance], 'price' => train[:price] }
      ext = {}
      unless train[:distance].is_a?(Integer)
        out.delete('distance')
        ext['distance'] = Overrides.jsonable(train[:distance])
      end
      out['count'] = unlimited ? 0 : game.send(:num_trains, train)
      out['unlimited'] = true if unlimited
      out['rusts_on'] = train[:rusts_on] if train[:rusts_on]
      out['reserve'] = true if train[:reserved]
      out['available_on'] = train[:available_on] if train[:available_on]
      # An event of the N-th copy (the reference's `when`) is `{type, on_copy}`; a plain name
      # is the first copy's. `hidden` is presentation.
      raw_events = train[:events] || []
      events = raw_events.map { |e| (e['when'] || 1) == 1 ? e['type'] : { 'type' => e['type'], 'on_copy' => e['when'] } }
      core_events = events.select { |e| TRAIN_EVENTS.include?(e) }
      out['events'] = core_events unless core_events.empty?
      ext['events'] = events unless core_events == events
      out['discount'] = train[:discount].to_h { |k, v| [k.to_s, v] } if train[:discount]
      counts = rule_train_counts(train, out['count'])
      ext['count_by_rule'] = counts unless counts.empty?
      rusts = rule_rusts_on(train)
      ext['rusts_on_by_rule'] = rusts unless rusts.empty?
      rule_presence(ext, train[:name].to_s, :game_trains)
      %i[obsolete_on no_local variants salvage multiplier].each do |key|
        ext[key.to_s] = Overrides.jsonable(train[key]) unless train[key].nil?
      end
      out[EXT] = ext unless ext.empty?
      out
    end

    # { rule => train } where an optional rule changes what rusts the train.
    def rule_rusts_on(train)
      @games.rule_games.filter_map do |rule, game|
        entry = game.send(:game_trains).find { |t| t[:name] == train[:name] }
        next unless entry && entry[:rusts_on] != train[:rusts_on]

        [rule, entry[:rusts_on]]
      end.to_h
    end

    def rule_train_counts(train, count)
      @games.rule_games.filter_map do |rule, game|
        entry = game.send(:game_trains).find { |t| t[:name] == train[:name] }
        next unless entry && entry[:num] != 'unlimited'

        n = game.send(:num_trains, entry)
        [rule, n] unless n == count
      end.to_h
    end

    # -- Private companies ----------------------------------------------------------------------

    def companies
      @game.send(:game_companies).map do |company|
        sym = company[:sym]
        out = { 'sym' => sym, 'name' => company[:name], 'value' => company[:value], 'revenue' => company[:revenue] }
        out['abilities'] = (company[:abilities] || []).map { |ability| ability(ability) }
        ext = {}
        # Removals in a title's set-up code (1889's two-player game) come from its override file.
        ext['min_players'] = company[:min_players] if company[:min_players]
        ext['color'] = company[:color] if company[:color]
        out[EXT] = ext unless ext.empty?
        company_override(out)
      end
    end

    def company_override(company)
      over = @overrides.company(company['sym'])
      company['abilities'] = over['abilities'] if over['abilities']
      (over['ability_fields'] || {}).each do |index, fields|
        ability = company['abilities'][index.to_i] or raise "#{company['sym']}: no ability #{index}"
        merged = Overrides.deep_merge(ability, fields)
        merged = order_hash(merged, TILE_LAY_ORDER) if merged['type'] == 'tile_lay'
        company['abilities'][index.to_i] = merged
      end
      (over['ability_extensions'] || {}).each do |index, fields|
        ability = company['abilities'][index.to_i] or raise "#{company['sym']}: no ability #{index}"
        ability[EXT] = (ability[EXT] || {}).merge(fields)
      end
      (over['extensions'] || {}).each do |key, value|
        company[EXT] = (company[EXT] || {}).merge(key => value)
      end
      company
    end

    # One reference ability (a hash of COMPANIES) in the schema's `Ability` form. An ability the
    # schema cannot express faithfully is kept whole as an added element, in the same naming
    # with its extra fields, so today's engine never applies half of an ability; one of a type
    # the schema lacks keeps the reference's fields.
    def ability(raw)
      raw = Overrides.jsonable(raw)
      out, core = case raw['type']
                  when 'blocks_hexes' then blocks_hexes(raw)
                  when 'tile_lay' then tile_lay(raw)
                  when 'teleport' then teleport(raw)
                  when 'exchange' then exchange(raw)
                  when 'shares' then shares(raw)
                  when 'close' then close(raw)
                  when 'no_buy' then [{ 'type' => 'no_buy' }.merge(extra(raw, [])), raw.size == 1]
                  else [raw, false]
                  end
      core ? out : out.merge(ADDED => true)
    end

    # The reference's fields a mapping does not use, as they are.
    def extra(raw, used)
      raw.reject { |k, _| (used + ['type']).include?(k) }
    end

    def blocks_hexes(raw)
      out = { 'type' => 'blocks_hexes', 'hexes' => raw['hexes'] }
      out['owner'] = raw['owner_type'] unless raw['owner_type'] == 'player'
      more = extra(raw, %w[owner_type hexes])
      [out.merge(more), raw['owner_type'] == 'player' && more.empty?]
    end

    TILE_LAY_ORDER = %w[type hexes tiles free count when must_lay_together first_hex consumes_tile_lay
                        closes_when_used connected].freeze
    TILE_LAY_KEYS = %w[owner_type hexes tiles free count when must_lay_together must_lay_all
                       closed_when_used_up consume_tile_lay].freeze

    def tile_lay(raw)
      whens = Array(raw['when'])
      out = { 'type' => 'tile_lay', 'hexes' => raw['hexes'] || [], 'tiles' => raw['tiles'] || [],
              'free' => !!raw['free'], 'count' => raw['count'] }
      out['when'] = whens.size == 1 ? whens.first : whens unless whens.empty?
      out['must_lay_together'] = true if raw['must_lay_together']
      out['consumes_tile_lay'] = true if raw['consume_tile_lay']
      out['closes_when_used'] = true if raw['closed_when_used_up']
      owner = raw['owner_type'] || 'corporation'
      out['owner'] = owner unless owner == 'corporation'
      # `must_lay_together` in the schema means every lay, in one go: the reference's
      # must_lay_together with must_lay_all.
      together = !!raw['must_lay_together'] == !!raw['must_lay_all']
      out['must_lay_all'] = !!raw['must_lay_all'] unless together
      more = extra(raw, TILE_LAY_KEYS)
      core = together && owner == 'corporation' && more.empty? && out['count'].is_a?(Integer) &&
             whens.size <= 1 && (whens.empty? || TILE_LAY_WHEN.include?(whens.first))
      [out.merge(more), core]
    end

    def teleport(raw)
      out = { 'type' => 'teleport', 'hexes' => raw['hexes'], 'tiles' => raw['tiles'] }
      more = extra(raw, %w[owner_type hexes tiles])
      [out.merge(more), raw['owner_type'] == 'corporation' && more.empty?]
    end

    # The schema's exchange takes a share from the IPO or the pool, whenever exchanges are
    # allowed (the reference's `when: any` allows the same as no `when`).
    def exchange(raw)
      corporations = Array(raw['corporations'])
      out = { 'type' => 'exchange' }
      if corporations.size == 1
        out['corporation'] = corporations.first
      else
        out['corporations'] = corporations
      end
      from = Array(raw['from'])
      out['from'] = from unless from.sort == %w[ipo market]
      whens = Array(raw['when'])
      out['when'] = raw['when'] unless [[], ['any']].include?(whens)
      more = extra(raw, %w[owner_type corporations from when])
      core = raw['owner_type'] == 'player' && corporations.size == 1 && !out.key?('from') &&
             !out.key?('when') && more.empty?
      [out.merge(more), core]
    end

    def shares(raw)
      share = raw['shares']
      out = { 'type' => 'shares', 'share' => share }.merge(extra(raw, %w[shares]))
      [out, out.size == 2 && share.is_a?(String) && share.match?(/\A.+_\d+\z/)]
    end

    def close(raw)
      if raw['when'] == 'bought_train' && raw['corporation']
        more = extra(raw, %w[when corporation])
        return [{ 'type' => 'close_on_train', 'corporation' => raw['corporation'] }.merge(more), more.empty?]
      end

      [raw, false]
    end

    # -- Corporations ---------------------------------------------------------------------------

    def raw_corporations
      @game.send(:game_corporations)
    end

    def kind_of(raw)
      (raw[:type] || 'major').to_s
    end

    def corporations
      several_kinds = raw_corporations.map { |c| kind_of(c) }.uniq.size > 1
      list = raw_corporations.map do |raw|
        out = { 'sym' => raw[:sym], 'name' => raw[:name] }
        ext = {}
        out['kind'] = kind_of(raw) if several_kinds
        unless %w[major minor].include?(kind_of(raw))
          out.delete('kind')
          ext['kind'] = kind_of(raw)
        end
        case raw[:coordinates]
        when String then out['home'] = raw[:coordinates]
        when Array then ext['home'] = raw[:coordinates]
        end
        out['home_city'] = raw[:city] if raw[:city].is_a?(Integer)
        ext['home_city'] = raw[:city] if raw[:city].is_a?(Array)
        out['tokens'] = raw[:tokens]
        out['color'] = raw[:color].to_s if raw[:color]
        out['text_color'] = raw[:text_color].to_s if raw[:text_color]
        ext['abilities'] = raw[:abilities].map { |a| Overrides.jsonable(a) } if raw[:abilities]&.any?
        ext.merge!(@finance.corporation_fields(raw[:sym]))
        ext['reservation_color'] = raw[:reservation_color].to_s if raw.key?(:reservation_color)
        out[EXT] = ext unless ext.empty?
        out
      end
      minors = @game.send(:game_minors)
      raise 'MINORS: entities the schema has no place for' unless minors.empty?

      list
    end

    # Corporations as the reference builds them (its defaults filled in), by kind.
    def built_corporations
      min_price = @game.stock_market.par_prices.map(&:price).min
      raw_corporations.map do |raw|
        @klass::CORPORATION_CLASS.new(min_price: min_price, capitalization: @klass::CAPITALIZATION,
                                      **raw.merge(@game.send(:corporation_opts)))
      end
    end

    def corporation_kinds
      by_kind = built_corporations.group_by { |c| (c.type || 'major').to_s }
      by_kind.to_h do |kind, corps|
        facts = corps.map do |c|
          { 'shares' => c.shares.map(&:percent), 'float_percent' => c.float_percent,
            'max_ownership_percent' => c.max_ownership_percent,
            'market_share_limit' => @game.send(:market_share_limit, c) }
        end
        raise "#{kind} corporations differ in #{facts.uniq}" unless facts.uniq.size == 1

        [kind, facts.first]
      end
    end

    # -- Rules ----------------------------------------------------------------------------------

    # The all-pass rule is code in the reference: it comes from the override file.
    def auction
      { 'bid_multiple' => @klass::MUST_BID_INCREMENT_MULTIPLE }
    end

    def home_token_timing(doc)
      timing = @klass::HOME_TOKEN_TIMING.to_s
      if %w[operate par].include?(timing)
        doc['home_token_timing'] = timing
      else
        doc[EXT] = (doc[EXT] || {}).merge('home_token_timing' => timing)
      end
    end

    def sell_buy_order(doc)
      order = @klass::SELL_BUY_ORDER.to_s
      if %w[sell_buy_sell sell_buy sell_buy_or_buy_sell].include?(order)
        doc['sell_buy_order'] = order
      else
        doc[EXT] = (doc[EXT] || {}).merge('sell_buy_order' => order)
      end
    end

    def tile_lays
      @klass::TILE_LAYS.map do |lay|
        out = { 'upgrade' => lay[:upgrade] == true, 'cost' => lay[:cost] || 0 }
        ext = {}
        case lay[:lay]
        when true then nil
        when :not_if_upgraded then out['not_if_upgraded'] = true
        else ext['lay'] = lay[:lay].to_s
        end
        ext['upgrade'] = lay[:upgrade].to_s unless [true, false].include?(lay[:upgrade])
        (lay.keys - %i[lay upgrade cost]).each { |k| ext[k.to_s] = Overrides.jsonable(lay[k]) }
        out[EXT] = ext unless ext.empty?
        out
      end
    end

    def operating_round_steps
      @operating_round_steps ||= @game.send(:operating_round, 1).steps
    end

    def operating_steps
      @operating_steps ||= operating_round_steps.map(&:class)
    end

    # The turn's steps in railnote's names (the schema's `operating.steps`), from the reference's
    # step list: the blocking steps a corporation's turn goes through. What can interrupt a turn
    # or be done at any time in it (home token, discards, private abilities, exchanges, bankruptcy,
    # cash crisis, private purchases before the last step, bridge and tunnel rights, the
    # national's formation) is no step. The loan step blocks only once the train step is passed,
    # so its place is right after it (`repay_loans`).
    def turn_steps
      steps = operating_round_steps
      loans = steps.any? { |s| s.respond_to?(:process_payoff_loan) }
      steps.flat_map do |step|
        case step
        when Engine::Step::IssueShares then ['issue_shares']
        when Engine::Step::Track then ['track']
        when Engine::Step::Token then ['token']
        when Engine::Step::Route then ['route']
        when Engine::Step::Dividend then ['dividend']
        when Engine::Step::BuyTrain then loans ? %w[buy_train repay_loans] : ['buy_train']
        when Engine::Step::BuyCompany then step.blocks? ? ['buy_company'] : []
        else
          if step.respond_to?(:process_destination_connection) then ['destinations']
          elsif step.respond_to?(:process_borrow_train) then ['borrow_train']
          else []
          end
        end
      end
    end

    def operating
      steps = operating_steps
      single = steps.any? { |s| s <= Engine::Step::BuySingleTrainOfType }
      home = steps.index { |s| s <= Engine::Step::HomeToken }
      buy_company = steps.index { |s| s <= Engine::Step::BuyCompany }
      out = {
        'steps' => turn_steps,
        'must_buy_train' => nil,
        'one_train_per_type_from_depot' => single,
      }
      ext = {}
      must = @klass::MUST_BUY_TRAIN.to_s
      if %w[route always].include?(must)
        out['must_buy_train'] = must
      else
        out.delete('must_buy_train')
        ext['must_buy_train'] = must
      end
      case @klass::EBUY_FROM_OTHERS
      when :value then nil
      when :never then out['emergency_from_others'] = 'never'
      else ext['emergency_from_others'] = @klass::EBUY_FROM_OTHERS.to_s
      end
      out['home_token_first'] = true if home && buy_company && home < buy_company
      out[EXT] = ext unless ext.empty?
      out
    end

    def enum(value, known, what)
      value = value.to_s
      raise "#{what} #{value}: not a value the schema knows" unless known.include?(value)

      value
    end

    # -- Overrides and extensions ---------------------------------------------------------------

    def apply_overrides(doc)
      merged = Overrides.deep_merge(doc, @overrides.title_fields)
      merged['operating'] = order_hash(merged['operating'], OPERATING_ORDER) if merged['operating']
      order_hash(merged, ORDER + [EXT])
    end

    def order_hash(hash, order)
      hash.sort_by { |k, _| [order.index(k) || order.size, k] }.to_h
    end

    def top_level_extensions(doc)
      ext = doc[EXT] || {}
      settings = reference_settings
      ext['reference_settings'] = settings unless settings.empty?
      @overrides.extensions.each { |k, v| ext[k] = Overrides.deep_merge(ext[k], v) }
      ext
    end

    def reference_settings
      base = Engine::Game::Base
      names = SETTINGS + (@klass.constants.select do |c|
        base.const_defined?(c) && c.match?(/\A[A-Z0-9_]+\z/) && !NOT_SETTINGS.include?(c) &&
          !c.start_with?('GAME_') && !@klass.const_get(c).is_a?(Module) && @klass.const_get(c) != base.const_get(c)
      end).sort
      names.uniq.to_h { |c| [c.to_s, Overrides.jsonable(@klass.const_get(c))] }
    end
  end
end
