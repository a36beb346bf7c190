# frozen_string_literal: true

# railnote's extension of the shared random player (../shared/oracle/random_play.rb): the same
# command line and output, with choices closer to what the 18xx.games web interface offers.
#
#   REF18XX=path/to/tobymao-18xx ruby tools/oracle/random_play_ext.rb TITLE FIRST_SEED COUNT [--out DIR] ...
#
# The shared oracle is found beside the project (../shared/oracle) or at $RAILNOTE_ORACLE.
# What this adds or corrects, each as a method of RandomPlayerExtensions below (view files are
# under assets/app/view/game/ of tobymao/18xx; tools/oracle/README.md has the longer story):
#
# - Trains: the web interface lists the trains for sale only while the corporation has room
#   for another train (or must buy one): buy_trains.rb shows "Available Trains" when
#   `(can_buy_train? && room?) || must_buy_train?`. At its train limit a corporation is only
#   offered the trade-ins ("Exchange Trains"). The shared player offered every train whenever
#   the train step was open, which the engine accepts through its programming interface only.
# - Trade-ins: the "Exchange" buttons (`discountable_trains_for`, when the step allows them).
# - Private companies' abilities (abilities.rb lists every owned company with actions; the map,
#   city slots, exchange.rb and the "Assign to" buttons act for the selected company): special
#   tile lays and teleports (lay_tile by the company), their tokens (place_token by the
#   company, with the `tokener` the city slot sends), exchanges of a private for a share
#   (buy_shares by the company) and bonus assignments (assign to a hex or a corporation).
# - Corporations issuing and redeeming shares (issue_shares.rb: one button per bundle of
#   `issuable_shares` / `redeemable_shares`).
# - What every game page offers besides the round's own panel: Undo, Restart Turn, Undo to
#   Here (a log line's action) and Redo (undo_button.rb, restart_turn_button.rb,
#   game_log.rb, redo_button.rb), the Auto tab's programmed actions (auto_action/*.rb:
#   auto pass, auto buy, disable), chat messages (game_log.rb), the Tools tab's End Game and
#   master mode (tools.rb: a move made for another player records the acting `user`).
# - Titles with loans and a national (1856, 1836Jr56): loans taken and paid back (loans.rb),
#   a player's cash crisis (cash_crisis.rb: sales, bankruptcy), the national's formation
#   (round/merger.rb: merge or pay; city_slot.rb: token removals; discard_trains.rb), borrowed
#   trains (borrow_train.rb), bridge and tunnel rights (special_buy.rb); and weights that let
#   their games reach the later phases (see "Titles with loans" in tools/oracle/README.md).
#
# Nothing of tobymao/18xx is copied: the engine is loaded and called.

require 'set'

oracle_dir = ENV['RAILNOTE_ORACLE'] || File.expand_path('../../../shared/oracle', __dir__)
require File.join(oracle_dir, 'random_play')

module Oracle
  # Methods that replace or add to the shared player's candidate generators.
  module RandomPlayerExtensions
    # Share of a decision's total weight given to each kind of company ability, so that they
    # stay occasional whatever the number of ordinary candidates.
    ABILITY_SHARE = {
      'lay_tile' => 0.15,
      'place_token' => 0.15,
      'exchange' => 0.03,
      'assign_hex' => 0.15,
      'assign_corporation' => 0.01,
    }.freeze
    # Chance per decision of making one of the page's other moves instead (tried first; the
    # decision's ordinary candidates follow if the engine refuses it).
    SIDE_CHANCE = {
      'undo' => 0.003,
      'restart_turn' => 0.001,
      'undo_to_here' => 0.001,
      'redo' => 0.35, # only possible right after an undo
      'message' => 0.002,
      'program_share_pass' => 0.004,
      'program_buy_shares' => 0.003,
      'program_disable' => 0.01, # for each program that is on
      'end_game' => 0.00003, # a few games in a hundred end by the Tools tab's button
    }.freeze
    # RAILNOTE_END_GAME_CHANCE=P studies games ended at any moment: End Game is drawn with
    # chance P per decision instead, half the time for the entity to act, as tools.rb sends it
    # for a user who does not play (a hotseat game's owner). Unset, games are generated as before.
    END_GAME_CHANCE = ENV['RAILNOTE_END_GAME_CHANCE']&.to_f
    # Chance that an ordinary move is made by another player in master mode (tools.rb): the
    # action then records that player as its `user`.
    MASTER_MODE_CHANCE = 0.01
    FREE_ACTIONS = %w[undo redo message end_game].freeze
    ISSUE_WEIGHT = 0.35 # against the step's pass at 1.0
    REDEEM_WEIGHT = 0.35
    CHAT = ['gl hf', 'oops', 'brb', 'nice run', 'why would you do that?', 'gg'].freeze

    # ---- trains ------------------------------------------------------------

    def gen_buy_train(e, step)
      must = step.respond_to?(:must_buy_train?) && step.must_buy_train?(e)
      room = !step.respond_to?(:room?) || step.room?(e)
      can_buy = step.respond_to?(:can_buy_train?) && step.can_buy_train?(e)
      out = (can_buy && room) || must ? super : []
      out = fewer_trades_between_corporations(e, out) if loan_title?
      out + gen_exchange_train(e, step)
    end

    # In titles with loans a corporation left without a train by a sale to another one must
    # soon buy one on credit or with its president's money, and most random games ended in a
    # bankruptcy before the later phases: a corporation that has a train buys others' trains
    # seldom.
    def fewer_trades_between_corporations(e, out)
      return out if e.trains.empty?

      out.map do |w, h|
        train = @game.train_by_id(h['train'])
        train && !train.from_depot? ? [w * 0.1, h] : [w, h]
      end
    end

    def gen_exchange_train(e, step)
      return [] unless step.respond_to?(:discountable_trains_allowed?) && step.discountable_trains_allowed?(e)

      @game.discountable_trains_for(e).filter_map do |train, discount_train, variant, price|
        next if price > e.cash

        [1.0, base(e, 'buy_train').merge('train' => discount_train.id, 'price' => price,
                                         'variant' => variant, 'exchange' => train.id)]
      end
    end

    # ---- the initial auction -------------------------------------------------

    # In a waterfall auction the owned privates pay out whenever everyone passes, and the
    # shared player raises its standing bids with that income instead of buying the company
    # on offer, which can go on for thousands of actions (a capped 1836Jr30 game). Raising
    # a bid gets rarer as the round drags on; the moves offered are unchanged.
    def gen_bid(e, step)
      out = super
      return out unless step.is_a?(Engine::Step::WaterfallAuction)

      length = @game.current_action_id - (@game.round_history.last || 0)
      damping = [1.0, 60.0 / [length, 1].max].min
      # may_purchase? reads @bids[@auctioning], which inserts an empty list: removed again
      # as in the shared gen_bid (an empty list changes 18Ireland's auction)
      bids = step.instance_variable_get(:@bids)
      keys_before = bids.keys
      out.map do |w, h|
        company = h['company'] && @game.company_by_id(h['company'])
        company && !step.may_purchase?(company) ? [w * damping, h] : [w, h]
      end
    ensure
      (bids.keys - keys_before).each { |k| bids.delete(k) if bids[k].empty? } if keys_before
    end

    # ---- decision points ---------------------------------------------------

    # The shared player's candidates for the acting entities plus the abilities panel's.
    # Now and then one of the page's other moves (undo/redo, the Auto tab, the chat) is put
    # first. Those are drawn once per decision rather than weighted in: they are possible
    # in every state, and a game whose ordinary moves are all refused must still read as
    # stuck rather than chat or undo its way out.
    def candidates
      out = super
      return out if out.empty?

      t0 = Oracle.now
      out += company_ability_candidates(out.sum(&:first))
      @stats['time_abilities'] += Oracle.now - t0
      x = @rng.rand
      side_candidates.each do |chance, make|
        next unless (x -= chance).negative?

        h = make.call
        return h ? [[1e9, h]] + out : out
      end
      out
    end

    def action_h(action)
      action.to_h.except('id', 'created_at')
    end

    def spread(options, total)
      options.map { |h| [total / options.size, h] }
    end

    def count_kind(kind)
      @stats["offered_#{kind}"] += 1
    end

    # ---- private companies' abilities --------------------------------------

    # abilities.rb: every company with an owner, not closed, with actions, usable by the
    # current entity, is a button (the current player's own first, the others' behind "Show
    # Others"; the engine accepts a company's action from its owner at any time, see
    # Game::Base#valid_actors). It is hidden while a company itself is the acting entity:
    # then the round's own panel acts for it (gen_lay_tile / gen_place_token below).
    def company_ability_candidates(total)
      round = @game.round
      current = @game.current_entity
      return [] if current.nil? || current.company?

      active = round.active_entities
      out = []
      @game.companies.each do |company|
        next if !company.owner || company.closed? || active.include?(company)
        next unless @game.entity_can_use_company?(current, company)

        types = round.actions_for(company)
        next if types.empty?

        if types.include?('lay_tile') && (step = map_step(company, 'lay_tile'))
          out.concat(spread(company_tile_options(company, step), ABILITY_SHARE['lay_tile'] * total))
        end
        if types.include?('place_token') && (step = map_step(company, 'place_token'))
          out.concat(spread(company_token_options(company, step), ABILITY_SHARE['place_token'] * total))
        end
        out.concat(spread(exchange_options(company), ABILITY_SHARE['exchange'] * total)) if types.include?('buy_shares')
        next unless types.include?('assign')

        by_hex, by_corp = assign_options(company)
        out.concat(spread(by_hex, ABILITY_SHARE['assign_hex'] * total))
        out.concat(spread(by_corp, ABILITY_SHARE['assign_corporation'] * total))
      end
      out
    rescue Engine::GameError => e
      @stats['ability_generation_errors'] += 1
      @rejections << "abilities: #{e.message[0, 120]}" if @rejections.size < 30
      []
    end

    # map.rb and city_slot.rb act through `round.active_step(selected_company)`: the first
    # active step with any action for the company; a click does something only if that step
    # has the action.
    def map_step(company, type)
      step = @game.round.active_step(company)
      step if step&.actions(company)&.include?(type)
    end

    # A company acting on its own (a teleport's token, the second of two tile lays that must
    # go together, 1889's Ehime Railway just sold): the round's panel shows the map for it.
    def gen_lay_tile(e, step)
      return super unless e.company?

      spread(company_tile_options(e, step), 3.0)
    end

    def gen_place_token(e, step)
      return super unless e.company?

      spread(company_token_options(e, step), 2.0)
    end

    # The map with a company selected: hexes where `available_hex`, tiles from
    # `upgradeable_tiles` in each of their `legal_rotations` (tile_selector.rb).
    def company_tile_options(company, step)
      return [] unless step.respond_to?(:available_hex) && step.respond_to?(:upgradeable_tiles)

      ability = step.respond_to?(:abilities) ? step.abilities(company) : nil
      free = ability.respond_to?(:free) && ability.free
      spender = company.owner&.corporation? ? company.owner : @game.current_entity
      budget = spender.respond_to?(:cash) ? spender.cash : nil
      out = []
      @game.hexes.each do |hex|
        next unless step.available_hex(company, hex)

        step.upgradeable_tiles(company, hex).each do |tile|
          # the terrain the owner could not pay would only be rejected (and cost a rebuild)
          next if !free && budget && terrain_cost_estimate(hex, tile) > budget

          (tile.legal_rotations || []).each do |rot|
            next unless keeps_lays_together?(ability, hex, tile, rot)

            out << base(company, 'lay_tile').merge('hex' => hex.id, 'tile' => tile.id, 'rotation' => rot)
          end
        end
      rescue Engine::GameError
        next
      end
      count_kind('company_lay_tile') unless out.empty?
      out
    end

    # Tiles an ability must lay together (18Ireland's Tralee & Dingle and Donegal, the
    # 18Chesapeake C-P and B&S): the engine checks that the tiles connect only after the
    # second lay (SpecialTrack#check_connect), and the company may not pass before all are
    # laid, so a first tile facing away from the other hexes leaves a game that can only be
    # undone. Offered here: a first tile with an exit towards another of the ability's hexes
    # that is still open to it, later ones with an exit meeting an exit of a tile already
    # laid with it.
    def keeps_lays_together?(ability, hex, tile, rot)
      return true unless ability.respond_to?(:must_lay_together) && ability.must_lay_together && ability.connect

      tile.rotate!(rot)
      laid = ability.laid_hexes
      if laid.empty?
        return true if ability.count.to_i < 2 || ability.hexes.to_a.size < 2

        tile.exits.any? do |edge|
          neighbor = hex.neighbors[edge]
          neighbor && ability.hexes.include?(neighbor.id) && open_for_ability?(ability, neighbor)
        end
      else
        tile.exits.any? do |edge|
          neighbor = hex.neighbors[edge]
          neighbor && laid.include?(neighbor.id) && neighbor.tile.exits.include?(Engine::Hex.invert(edge))
        end
      end
    end

    # Whether the ability could still lay one of its tiles on the hex (bare, or with a tile
    # one of the ability's tiles upgrades).
    def open_for_ability?(ability, hex)
      return true if hex.tile.color == :white

      ability.tiles.to_a.any? do |name|
        (tile = @game.tiles.find { |t| t.name == name }) && @game.upgrades_to?(hex.tile, tile, ability.special)
      end
    end

    # The company's own Pass button while it must still lay tiles is refused by the engine
    # ("must use all its tile lays"). A national's formation has its own Pass (below).
    def gen_pass(e, step)
      if e.company? && step.respond_to?(:abilities) && (ability = step.abilities(e)) &&
         ability.respond_to?(:must_lay_all) && ability.must_lay_all && ability.count.to_i.positive?
        return []
      end
      if national_formation_step?(step)
        return e == step.current_entity ? national_formation_pass(e, step) : []
      end

      super
    end

    # city_slot.rb: a click on a city of an available hex places the company's next token,
    # with `tokener` the owning corporation (the acting entity for a player's company) and the
    # step's `token_cost_override` as cost. Offered only where the token fits (`tokenable?`),
    # in the slot it goes to.
    def company_token_options(company, step)
      return [] unless step.respond_to?(:available_hex) && step.respond_to?(:available_tokens)

      tokens = step.available_tokens(company)
      return [] if tokens.empty?

      owner = @game.token_owner(company)
      tokener = company.owned_by_player? ? @game.current_entity : owner
      out = []
      @game.hexes.each do |hex|
        next unless step.available_hex(company, hex)

        hex.tile.cities.each do |city|
          next unless city.tokenable?(owner, free: true, tokens: tokens)

          slot = city.get_slot(owner) || 0
          tokens.map(&:type).uniq.each do |type|
            action = Engine::Action::PlaceToken.new(company, city: city, slot: slot, tokener: tokener,
                                                             token_type: type)
            if step.respond_to?(:token_cost_override)
              action.cost = step.token_cost_override(company, city, slot, action.token)
            end
            out << action_h(action)
          end
        end
      end
      count_kind('company_place_token') unless out.empty?
      out
    end

    # exchange.rb: one button per share the ability may take (IPO, the presidency where the
    # title allows a partial one, market, reserved) that the owner `can_gain?`.
    def exchange_options(company)
      step = @game.round.active_step(company)
      ability = @game.abilities(company, :exchange)
      return [] unless ability && step.respond_to?(:can_gain?)

      shares = []
      @game.exchange_corporations(ability).each do |corporation|
        if ability.from.include?(:ipo)
          shares << corporation.shares.find { |s| !s.president }
          shares << corporation.shares.find(&:president) if @game.exchange_for_partial_presidency?
        end
        shares << @game.share_pool.shares_by_corporation[corporation]&.first if ability.from.include?(:market)
        shares << corporation.reserved_shares&.first if ability.from.include?(:reserved)
      end
      out = shares.compact.uniq.select { |s| step.can_gain?(company.owner, s, exchange: true) }
                  .map { |s| action_h(Engine::Action::BuyShares.new(company, shares: s)) }
      count_kind('exchange') unless out.empty?
      out
    end

    # abilities.rb "Assign to <corporation>" buttons (when the company has an
    # assign_corporation ability) and hex.rb's map click on an `available_hex`.
    def assign_options(company)
      step = @game.round.step_for(company, 'assign')
      by_corp = []
      if @game.abilities(company, :assign_corporation) && step.respond_to?(:assignable_corporations)
        by_corp = step.assignable_corporations(company).map do |corporation|
          action_h(Engine::Action::Assign.new(company, target: corporation))
        end
      end
      by_hex = []
      if (map = map_step(company, 'assign'))
        by_hex = @game.hexes.select { |hex| map.available_hex(company, hex) }
                      .map { |hex| action_h(Engine::Action::Assign.new(company, target: hex)) }
      end
      count_kind('assign') unless (by_hex + by_corp).empty?
      [by_hex, by_corp]
    end

    # ---- issuing and redeeming shares --------------------------------------

    # issue_shares.rb: "Issue" buttons for `issuable_shares`, "Redeem" buttons for
    # `redeemable_shares` of the step that takes the action, each for the whole bundle at the
    # bundle's share price.
    def gen_sell_shares(e, step)
      return fewer_stock_round_sales(e, step, super) if loan_title? && e.player?
      return super unless e.corporation?
      return [] unless step.respond_to?(:issuable_shares)

      step.issuable_shares(e).map do |bundle|
        [ISSUE_WEIGHT, action_h(Engine::Action::SellShares.new(e, shares: bundle.shares,
                                                                  share_price: bundle.share_price))]
      end
    end

    def gen_buy_shares(e, step)
      return super unless e.corporation?
      return [] unless step.respond_to?(:redeemable_shares)

      step.redeemable_shares(e).map do |bundle|
        [REDEEM_WEIGHT, action_h(Engine::Action::BuyShares.new(e, shares: bundle.shares,
                                                                 share_price: bundle.share_price))]
      end
    end

    # ---- loans, bankruptcy by a player, the national (the 1856 family) -------

    # loans.rb: "Take Loan" whenever the step offers it (the bank's first loan), "Payoff Loan"
    # (the corporation's first loan). A loan is drawn now and then in the turn, often when a
    # train must be bought that the treasury cannot pay, and in the loan step after the train
    # step against its pass.
    TAKE_LOAN_WEIGHT = { 'must_buy_short' => 3.0, 'loan_step' => 0.15, 'any' => 0.03 }.freeze
    PAYOFF_LOAN_WEIGHT = 0.7

    def gen_take_loan(e, _step)
      return [] unless e.corporation? && (loan = @game.loans.first)

      [[take_loan_weight(e), action_h(Engine::Action::TakeLoan.new(e, loan: loan))]]
    end

    def take_loan_weight(e)
      active = @game.round.active_step
      if active.respond_to?(:must_buy_train?) && active.respond_to?(:buyable_trains) && active.must_buy_train?(e)
        cheapest = active.buyable_trains(e).select(&:from_depot?).map(&:price).min
        return TAKE_LOAN_WEIGHT['must_buy_short'] if cheapest && e.cash < cheapest
      end
      return TAKE_LOAN_WEIGHT['loan_step'] if active.respond_to?(:process_take_loan)

      TAKE_LOAN_WEIGHT['any']
    end

    def gen_payoff_loan(e, _step)
      return [] unless e.corporation? && (loan = e.loans.first)

      [[PAYOFF_LOAN_WEIGHT, action_h(Engine::Action::PayoffLoan.new(e, loan: loan))]]
    end

    # A player's own bankruptcy: emergency_money.rb shows "Declare Bankruptcy" to the player a
    # cash crisis is about (cash_crisis.rb, the step's current entity) when
    # `can_go_bankrupt?(player, nil)`. A corporation's, in the train step, is the shared
    # player's (buy_trains.rb).
    def gen_bankrupt(e, step)
      return super unless e.player?

      active = @game.round.active_step
      return [] unless active.respond_to?(:cash_crisis?) && active.cash_crisis? && active.current_entity == e
      return [] unless @game.can_go_bankrupt?(e, nil)

      [[1.0, base(e, 'bankrupt')]]
    end

    # special_buy.rb: one button per `buyable_items` (1856's tunnel and bridge rights).
    SPECIAL_BUY_WEIGHT = 0.15

    def gen_special_buy(e, step)
      return [] unless step.respond_to?(:buyable_items)

      active = @game.round.active_step
      # not with the money for a train it must buy
      return [] if active.respond_to?(:must_buy_train?) && active.must_buy_train?(e)

      step.buyable_items(e).map do |item|
        [SPECIAL_BUY_WEIGHT, action_h(Engine::Action::SpecialBuy.new(e, item: item))]
      end
    end

    # borrow_train.rb: a "Borrow" button per `borrowable_trains`.
    def gen_borrow_train(e, step)
      return [] unless step.respond_to?(:borrowable_trains)

      step.borrowable_trains(e).map do |train|
        [2.0, action_h(Engine::Action::BorrowTrain.new(e, train: train))]
      end
    end

    # city_slot.rb with a remove_token step: a click on a token the step `can_replace_token?`
    # on one of its hexes (the national's duplicate tokens and tokens over its limit).
    def gen_remove_token(e, step)
      return [] unless step.respond_to?(:can_replace_token?) && step.respond_to?(:available_hex)

      out = []
      @game.hexes.each do |hex|
        next unless step.available_hex(e, hex)

        hex.tile.cities.each do |city|
          city.tokens.each_with_index do |token, slot|
            next unless token && step.can_replace_token?(e, token)

            out << action_h(Engine::Action::RemoveToken.new(e, city: city, slot: slot))
          end
        end
      end
      spread(out, 2.0)
    end

    # discard_trains.rb lists `step.trains(corporation)` (every train for the generic step;
    # only those the national may give up at its formation).
    def gen_discard_train(e, step)
      return super unless step.respond_to?(:trains)

      trains = step.trains(e) || []
      trains.map { |t| [1.0, base(e, 'discard_train').merge('train' => t.id)] }
    end

    # The merger panel's Pass of a national's formation ("Pay $N to cover loans") makes the
    # president pay what the treasury lacks; the engine refuses it when he has not that cash.
    # The national's formation step and 1856's dividend step answer any entity, the president
    # too; their panels act for the step's current entity only.
    def gen_merge(e, step)
      return [] if national_formation_step?(step) && e != step.current_entity

      super
    end

    def gen_dividend(e, step)
      return [] unless e == step.current_entity

      out = super
      return out unless loan_title? && treasury_short_of_a_train?(e)

      # With loans and interest, a corporation that pays everything out seldom buys the next
      # train and its president soon goes bankrupt: in those titles a treasury short of the
      # cheapest depot train, with room for one, withholds more often.
      out.map { |w, h| [h['kind'] == 'withhold' ? 4.0 : w, h] }
    end

    def loan_title?
      @loan_title = !@game.loans.empty? || @game.corporations.any? { |c| !c.loans.empty? } if @loan_title.nil?
      @loan_title
    end

    def treasury_short_of_a_train?(e)
      cheapest = @game.depot.min_depot_price
      cheapest.positive? && e.cash < cheapest && e.trains.size < @game.train_limit(e)
    end

    def national_formation_step?(step)
      step.respond_to?(:merge_target) && step.respond_to?(:amount_owed)
    end

    def national_formation_pass(e, step)
      major = step.active_entities.first
      return [] unless major&.owner&.player?
      return [] if major.owner.cash < step.amount_owed - major.cash

      [[1.0, base(e, 'pass')]]
    end

    # Titles with loans: players who sell at random in stock rounds soon cannot pay the
    # interest of their corporations; a sale is a third as likely unless one is forced.
    def fewer_stock_round_sales(_e, step, out)
      return out unless step.is_a?(Engine::Step::BuySellParShares)
      return out if out.any? { |w, _| w >= 1.0 }

      out.map { |w, h| [w / 3.0, h] }
    end

    # ---- undo, redo, programmed actions, chat ------------------------------

    # [chance, maker] pairs; the move is only built when drawn (finding an "Undo to Here"
    # target reads the whole log).
    def side_candidates
      out = []
      current = @game.current_entity
      if current && @game.undo_possible
        out << [SIDE_CHANCE['undo'], -> { base(current, 'undo') }]
        out << [SIDE_CHANCE['restart_turn'], lambda {
          (target = restart_turn_target) && base(current, 'undo').merge('action_id' => target)
        }]
        out << [SIDE_CHANCE['undo_to_here'], lambda {
          (target = undo_to_here_target) && base(current, 'undo').merge('action_id' => target)
        }]
      end
      out << [SIDE_CHANCE['redo'], -> { base(current, 'redo') }] if current && @game.redo_possible
      player = @game.players.sample(random: @rng)
      out << [SIDE_CHANCE['message'], -> { base(player, 'message').merge('message' => CHAT.sample(random: @rng)) }]
      out.concat(program_candidates(player))
      out << if END_GAME_CHANCE
               [END_GAME_CHANCE, lambda {
                 base(@rng.rand < 0.5 && current ? current : player, 'end_game')
               }]
             else
               [SIDE_CHANCE['end_game'], -> { base(player, 'end_game') }]
             end
      out
    end

    # restart_turn_button.rb: back to the start of the current turn, or of the last one when
    # nothing has happened in this one yet; disabled in auction rounds.
    def restart_turn_target
      return nil if @game.round.is_a?(Engine::Round::Auction)

      target = if @game.turn_start_action_id != @game.last_game_action_id
                 @game.turn_start_action_id
               else
                 @game.last_turn_start_action_id
               end
      target&.positive? ? target : nil
    end

    # game_log.rb: clicking a log line offers "Undo to Here" for its action unless it is the
    # last one; we pick one of the few latest (a random player that undid half the game would
    # never finish).
    def undo_to_here_target
      effective, = Engine::Game::Base.filtered_actions(@actions)
      logged = @game.log.map(&:action_id).to_set
      ids = effective.compact
                     .reject { |a| a['type'] == 'message' || a['type'].start_with?('program_') }
                     .map { |a| a['id'] }
                     .select { |id| logged.include?(id) && id != @game.last_game_action_id }
      ids.last(8).sample(random: @rng)
    end

    # auto_action/*.rb (the Auto tab, open to every player at any time): "Auto Pass" with its
    # two checkboxes, "Auto Buy Shares" for a corporation with shares in the IPO or market
    # (until floated, or up to a number of shares from one source, optionally switching to
    # auto pass after), and "Disable" for a program that is on.
    def program_candidates(player)
      available = @game.available_programmed_actions
      out = []
      if available.include?(Engine::Action::ProgramSharePass)
        out << [SIDE_CHANCE['program_share_pass'], lambda {
          base(player, 'program_share_pass').merge('unconditional' => @rng.rand < 0.3, 'indefinite' => @rng.rand < 0.1)
        }]
      end
      if available.include?(Engine::Action::ProgramBuyShares)
        out << [SIDE_CHANCE['program_buy_shares'], -> { program_buy_shares_h(player) }]
      end
      @game.players.each do |p|
        @game.programmed_actions[p].each do |program|
          out << [SIDE_CHANCE['program_disable'], lambda {
            base(p, 'program_disable').merge('reason' => 'user', 'original_type' => program.type)
          }]
        end
      end
      out
    end

    def program_buy_shares_h(player)
      buyable = @game.corporations.select do |c|
        c.ipoed && (!c.ipo_shares.empty? || !@game.share_pool.shares_by_corporation[c].empty?)
      end
      return nil if buyable.empty?

      corporation = buyable.sample(random: @rng)
      owned = player.num_shares_of(corporation, ceil: false)
      modes = []
      modes << ['float', false] unless corporation.floated?
      modes << [:ipo, false] unless corporation.ipo_shares.empty?
      pool = @game.share_pool.shares_by_corporation[corporation]
      modes << [:market, true] unless pool.empty?
      until_condition, from_market = modes.sample(random: @rng)
      unless until_condition == 'float'
        # the form's number input runs from the shares held to all that source has
        available = until_condition == :ipo ? corporation.ipo_shares.size : pool.size
        until_condition = (owned + 1 + @rng.rand(0...[available, 2].min)).to_i
      end
      base(player, 'program_buy_shares').merge('corporation' => corporation.id, 'until_condition' => until_condition,
                                               'from_market' => from_market, 'auto_pass_after' => @rng.rand < 0.3)
    end

    # actionable.rb: with master mode on, a player may act for the one whose turn it is; the
    # server records the acting user (Action::Base.from_h keeps it when it is not the
    # entity's player). Free actions and the Auto tab (always for oneself) never carry it.
    def in_master_mode(h)
      return h if FREE_ACTIONS.include?(h['type']) || h['type'].start_with?('program_')
      return h unless @rng.rand < MASTER_MODE_CHANCE

      player = @game.get(h['entity_type'], h['entity'])&.player
      others = @game.players.reject { |p| p == player }
      return h if player.nil? || others.empty?

      h.merge('user' => others.sample(random: @rng).id)
    end

    # An undo or redo makes the engine build a new game (Game::Base#process_action returns
    # a clone), so the record is appended and the game rebuilt from the whole log, as a page
    # reload would.
    def try!(h)
      unless %w[undo redo].include?(h['type'])
        ok = super(in_master_mode(h))
        if !ok && h['entity_type'] == 'company'
          @stats["rejected_company_#{h['type']}"] += 1
          @rejections << "(company #{h['entity']} #{h.except('type', 'entity', 'entity_type')})"
        end
        return ok
      end

      action = Engine::Action::Base.action_from_h(h.merge('created_at' => (@clock += 60)), @game)
      action.id = @game.current_action_id + 1
      @actions << action.to_h
      t0 = Oracle.now
      begin
        rebuild!
        @stats['time_undo_redo'] += Oracle.now - t0
      rescue StandardError => e
        @actions.pop
        @stats['rejected_candidates'] += 1
        @rejections << "#{h['type']}: #{e.message[0, 120]}" if @rejections.size < 30
        rebuild!
        return false
      end
      kind = h['type'] == 'undo' && h['action_id'] ? 'undo_action_id' : h['type']
      @stats["ok_#{kind}"] += 1
      true
    end
  end

  RandomPlayer.prepend(RandomPlayerExtensions)
end

# Run the shared player's command line with the extensions in place: loading the file as the
# program re-reads the class (the prepended module still comes first) and runs its main part.
if $PROGRAM_NAME == __FILE__
  $PROGRAM_NAME = File.join(oracle_dir, 'random_play.rb')
  load $PROGRAM_NAME
end
