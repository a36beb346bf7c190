# frozen_string_literal: true

# railnote's extension of the shared random player (../shared/oracle/random_play.rb): the same
# command line and output, with choices closer to what the 18xx.games web interface offers.
#
#   REF18XX=path/to/tobymao-18xx ruby tools/oracle/random_play_ext.rb TITLE FIRST_SEED COUNT [--out DIR] ...
#
# The shared oracle is found beside the project (../shared/oracle) or at $RAILNOTE_ORACLE.
# What this adds or corrects, each as a method of RandomPlayerExtensions below:
#
# - Trains: the web interface lists the trains for sale only while the corporation has room
#   for another train (or must buy one): view/game/buy_trains.rb shows "Available Trains" when
#   `(can_buy_train? && room?) || must_buy_train?`. At its train limit a corporation is only
#   offered the trade-ins ("Exchange Trains"). The shared player offered every train whenever
#   the train step was open (at the limit, when a discounted trade-in was affordable), which
#   the engine accepts through its programming interface only.
# - Trade-ins: the shared player never traded a train in; the "Exchange" buttons are offered
#   here (`discountable_trains_for`, when the step allows them).
#
# Nothing of tobymao/18xx is copied: the engine is loaded and called.

oracle_dir = ENV['RAILNOTE_ORACLE'] || File.expand_path('../../../shared/oracle', __dir__)
require File.join(oracle_dir, 'random_play')

module Oracle
  # Methods that replace or add to the shared player's candidate generators.
  module RandomPlayerExtensions
    def gen_buy_train(e, step)
      must = step.respond_to?(:must_buy_train?) && step.must_buy_train?(e)
      room = !step.respond_to?(:room?) || step.room?(e)
      can_buy = step.respond_to?(:can_buy_train?) && step.can_buy_train?(e)
      out = (can_buy && room) || must ? super : []
      out + gen_exchange_train(e, step)
    end

    def gen_exchange_train(e, step)
      return [] unless step.respond_to?(:discountable_trains_allowed?) && step.discountable_trains_allowed?(e)

      @game.discountable_trains_for(e).filter_map do |train, discount_train, variant, price|
        next if price > e.cash

        [1.0, base(e, 'buy_train').merge('train' => discount_train.id, 'price' => price,
                                         'variant' => variant, 'exchange' => train.id)]
      end
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
