# frozen_string_literal: true

module TitleExport
  # Facts of titles with loans, escrow capitalisation, destinations and a national corporation
  # (1856 and 1836Jr56 in the reference): the reference keeps them in its game class's methods
  # and constants (`loan_value`, `num_loans`, `interest_rate`, `maximum_loans`, `national`,
  # `national_token_price`, `national_token_limit`, `max_national_shares`, `percent_to_operate`,
  # `capitalization`, the destination tables, the bridge and tunnel rights). Each fact is read
  # from a game built by the reference (GameSet); a title without the method has none of it.
  # Everything goes to the extensions until the schema has it (names agreed in the issue's
  # status files).
  class FinanceFacts
    def initialize(games)
      @games = games
      @game = games.default
    end

    def any?
      @game.respond_to?(:loan_value) && @game.respond_to?(:national)
    end

    # Top-level facts: { name => value }.
    def title_fields
      return {} unless any?

      out = {}
      out['capitalization'] = @game.capitalization.to_s
      out['escrow'] = { 'paid_while_ipo_above' => 50 } if @game.capitalization == :escrow
      out['percent_to_operate'] = { 'start' => @game.percent_to_operate, 'change_float' => 10 }
      out['loans'] = loans
      out['national'] = national
      rights = bonus_rights
      unless rights.empty?
        out['bonus_rights'] = rights
        rule = unlimited_rights_rule
        out['unlimited_rights_rule'] = rule if rule
      end
      by_rule = destinations_by_rule
      out['destinations_by_rule'] = by_rule unless by_rule.empty?
      out
    end

    # `limit`: the reference's `maximum_loans` is the number of the corporation's shares in
    # players' hands (`num_player_shares`).
    def loans
      { 'value' => @game.loan_value, 'count' => @game.num_loans, 'interest' => @game.interest_rate,
        'limit' => 'player_shares' }
    end

    def national
      corp = @game.national
      abilities = corp.all_abilities
      limit = abilities.find { |a| a.type == :train_limit }
      borrow = abilities.find { |a| a.type == :borrow_train }
      out = {
        'corporation' => corp.id,
        'token_price' => @game.national_token_price,
        'token_limit' => @game.national_token_limit,
        'max_shares' => @game.max_national_shares,
        'formation_train_limit_bonus' => limit&.increase,
        'train_limit_bonus' => @game.class::POST_NATIONALIZATION_TRAIN_ABILITY.increase,
        'borrow_trains' => borrow&.train_types,
        'face_value_trades' => abilities.any? { |a| a.type == :train_buy && a.face_value },
        'second_issue' => second_issue,
      }
      if @game.class.const_defined?(:POST_NATIONALIZATION_CERT_LIMIT)
        table = @game.class::POST_NATIONALIZATION_CERT_LIMIT
        out['cert_limit_after'] = table.sort_by { |n, _| -n }.to_h do |n, by_players|
          [n.to_s, by_players.to_h { |p, v| [p.to_s, v] }]
        end
      end
      out.compact
    end

    # When more than ten shares are due in the exchange, the reference turns the national into
    # a 20-share corporation (`national_issue_shares!`): the president's certificate becomes
    # 10%, the others 5%, and ten 5% shares are added, numbered from the new share count (so
    # `CGR_20` … `CGR_29` in the logs). Read by doing it on a game built for the purpose.
    def second_issue
      return nil unless @game.respond_to?(:national_issue_shares!, true)

      game = @games.build(@games.player_counts.last, [], fresh: true)
      national = game.national
      before = national.shares.map(&:id)
      game.send(:national_issue_shares!)
      added = national.shares.reject { |share| before.include?(share.id) }
      indices = added.map { |share| share.id.split('_').last.to_i }
      { 'first_index' => indices.min, 'count' => added.size, 'percent' => added.first.percent,
        'president_percent' => national.presidents_share.percent, 'cert_size' => added.first.cert_size }
    end

    # { corporation sym => { "to" => [...], "from" => hex (only when not its home) } }
    def destinations(game = @game)
      table = game.instance_variable_get(:@destinations) || {}
      table.to_h do |sym, (start, goals)|
        corp = game.corporation_by_id(sym)
        dest = { 'to' => goals }
        dest['from'] = start unless corp && corp.coordinates == start
        [sym, dest]
      end
    end

    def destinations_by_rule
      default = destinations
      @games.rule_games.filter_map do |rule, game|
        changed = destinations(game).reject { |sym, dest| default[sym] == dest }
        [rule, changed] unless changed.empty?
      end.to_h
    end

    # The bridge and tunnel rights (`grant_right`, `RIGHT_COST`, the marker hexes and icons).
    def bonus_rights
      klass = @game.class
      return [] unless klass.const_defined?(:RIGHT_COST) && @game.respond_to?(:bridge)

      [['tunnel', :tunnel, klass::TUNNEL_TOKEN_HEX], ['bridge', :bridge, klass::BRIDGE_TOKEN_HEX]].map do |name, right, hex|
        company = @game.send(right)
        corp = Engine::Corporation.new(sym: 'X', name: 'X', tokens: [])
        @game.grant_right(corp, right)
        ability = corp.all_abilities.find { |a| a.type == :hex_bonus }
        markers = @game.hex_by_id(hex).tile.icons.count { |icon| icon.name == name }
        { 'right' => name, 'company' => company.id, 'hexes' => ability.hexes, 'revenue' => ability.amount,
          'price' => klass::RIGHT_COST, 'markers' => markers, 'marker_hex' => hex }
      end
    rescue Engine::GameError
      # 1836Jr56: the methods exist but raise (no bridge, no tunnel)
      []
    end

    # The optional rule under which the markers are never used up (the reference's
    # `unlimited_bonus_tokens?`).
    def unlimited_rights_rule
      @games.rule_games.each do |rule, game|
        return rule if game.respond_to?(:unlimited_bonus_tokens?) && game.unlimited_bonus_tokens?
      end
      nil
    end

    # Per corporation: its destination.
    def corporation_fields(sym)
      return {} unless any?

      dest = destinations[sym]
      dest ? { 'destination' => dest } : {}
    end

    # Map icons that mark a destination (drawn from the destinations instead).
    def destination_icon_names
      return [] unless any?

      @games.all_games.flat_map { |game| destinations(game).keys }.uniq
    end
  end
end
