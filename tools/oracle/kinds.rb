# frozen_string_literal: true

# Counts, over the random games in the given directories, how many games contain each kind of
# move (and how many such moves in all), so that a batch's coverage can be checked. Moves an
# undo took back (and not redone) are left out: the undo and redo records themselves count.
#
#   REF18XX=path/to/tobymao-18xx ruby tools/oracle/kinds.rb CORPUS/1836Jr30 [CORPUS/18Ireland ...]
#
# A kind is the action type, refined where the type alone says little: the entity type for
# company and corporation share moves, `undo` with an action_id, a trade-in, an assignment's
# target type, auto actions (embedded in another action's `auto_actions`) prefixed `auto:`;
# an action made in master mode (with a `user`) also counts as `user (master mode)`.

require 'json'

oracle_dir = ENV['RAILNOTE_ORACLE'] || File.expand_path('../../../shared/oracle', __dir__)
require File.join(oracle_dir, 'common')
Oracle.load_engine!

def kinds_of(action, prefix = '')
  type = action['type']
  kind =
    case type
    when 'lay_tile', 'place_token', 'pass' then action['entity_type'] == 'company' ? "#{type}/company" : type
    when 'buy_shares', 'sell_shares'
      %w[company corporation].include?(action['entity_type']) ? "#{type}/#{action['entity_type']}" : type
    when 'undo' then action['action_id'] ? 'undo/action_id' : 'undo'
    when 'buy_train' then action['exchange'] ? 'buy_train/exchange' : type
    when 'assign' then "assign/#{action['target_type']}"
    else type
    end
  master = action['user'] ? ['user (master mode)'] : []
  [prefix + kind] + master + (action['auto_actions'] || []).flat_map { |a| kinds_of(a, 'auto:') }
end

games = Hash.new(0)
moves = Hash.new(0)
total = 0
ARGV.each do |dir|
  Dir.glob(File.join(dir, 'seed*.json')).each do |file|
    total += 1
    actions = JSON.parse(File.read(file))['actions']
    effective, = Engine::Game::Base.filtered_actions(actions)
    records = actions.select { |a| %w[undo redo].include?(a['type']) }
    seen = (effective.compact + records).flat_map { |a| kinds_of(a) }
    seen.each { |k| moves[k] += 1 }
    seen.uniq.each { |k| games[k] += 1 }
  end
end
puts "#{total} games"
games.keys.sort.each { |k| puts format('%-28s %5d games %7d moves', k, games[k], moves[k]) }
