# frozen_string_literal: true

module TitleExport
  # Reference game objects of one title, built with dummy players: the default game (most
  # players, no optional rule) and one per optional rule. Facts are read from the default game;
  # the others show what a rule changes.
  class GameSet
    attr_reader :game_class

    def initialize(title)
      @game_class = Engine.game_by_title(title) or raise "the reference has no title #{title}"
      @games = {}
    end

    def player_counts
      lo, hi = @game_class::PLAYER_RANGE
      (lo..hi).to_a
    end

    def default
      build(player_counts.last, [])
    end

    # { rule => game with only that rule }
    def rule_games
      @game_class::OPTIONAL_RULES.to_h { |rule| [rule[:sym].to_s, build(player_counts.last, [rule[:sym]])] }
    end

    # The default game and every rule game.
    def all_games
      [default] + rule_games.values
    end

    # A game of `count` players with these rules; `fresh`: a new one, not kept (for facts read
    # by changing a game).
    def build(count, rules, fresh: false)
      return new_game(count, rules) if fresh

      @games[[count, rules]] ||= new_game(count, rules)
    end

    def new_game(count, rules)
      names = (1..count).to_h { |i| [i, "Player #{i}"] }
      # A fixed id (and so seed) keeps games with random set-ups (18Ireland) reproducible.
      @game_class.new(names, id: 1, optional_rules: rules)
    end
  end
end
