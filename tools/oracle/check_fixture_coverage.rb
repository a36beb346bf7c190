# frozen_string_literal: true

# Checks that a title's data covers everything its finished 18xx.games games use: every tile
# laid (name and copy number), train bought, run, discarded or borrowed (name and copy number,
# optional-rule trains only under their rule), token city (placed or removed), hex, private and
# corporation, share certificate (a national's added shares too) and par price, loan id, bridge
# or tunnel right bought, port hex assigned.
#
#   ruby tools/oracle/check_fixture_coverage.rb TITLE [...]     # e.g. 1830 1889 18Chesapeake
#
# Reads data/<title in lower case>/{title,map}.json (facts in the extensions area count: they
# are the title's facts too) and ../shared/fixtures/<TITLE>/*.json. Exit status 1 when something
# is missing. Needs no reference engine.

require 'json'

module FixtureCoverage
  DATA_DIR = File.expand_path('../../data', __dir__)
  FIXTURES_DIR = ENV['RAILNOTE_FIXTURES'] || File.expand_path('../../../shared/fixtures', __dir__)

  # What the data offers, read once per title.
  class Facts
    attr_reader :tiles, :trains, :hexes, :companies, :corporations, :pars, :loans, :national, :extra_shares,
                :rights, :assign_hexes

    def initialize(dir)
      title = JSON.parse(File.read(File.join(dir, 'title.json')))
      map = JSON.parse(File.read(File.join(dir, 'map.json')))
      ext = title['extensions'] || {}
      @tiles = tile_index(map)
      @trains = train_index(title)
      @hexes = map['hexes'].to_h { |h| [h['coord'], h] }
      @companies = title['companies'].map { |c| c['sym'] }
      @corporations = title['corporations'].to_h do |c|
        kind = c['kind'] || 'major'
        [c['sym'], title['corporation_kinds'][kind]['shares'].size]
      end
      @loans = ext.dig('loans', 'count') || 0
      @national = ext.dig('national', 'corporation')
      issue = ext.dig('national', 'second_issue')
      # the national's shares added when it becomes a 20-share corporation
      @extra_shares = issue ? (issue['first_index']...(issue['first_index'] + issue['count'])).to_a : []
      @rights = (ext['bonus_rights'] || []).map { |r| "#{r['right'].capitalize} Token" }
      @assign_hexes = title['companies'].to_h do |c|
        [c['sym'], c['abilities'].select { |a| a['type'] == 'assign_hex' }.flat_map { |a| a['hexes'] }]
      end
      @pars = title['market'].flat_map.with_index do |row, r|
        row.each_with_index.filter_map { |cell, c| "#{cell.to_i},#{r},#{c}" if cell.end_with?('p') || cell.include?('p') }
      end
    end

    # name => { count:, unlimited:, rule:, cities: [part, ...], preprinted: }
    def tile_index(map)
      ext = map.dig('extensions', 'tiles') || {}
      defs = map['tiles'].map { |t| [t, ext[t['name']] || {}] }
      ext.each_value { |e| defs << [e['added'], {}] if e['added'] }
      defs.to_h do |tile, more|
        cities = (tile['nodes'] || []).select { |n| n['kind'] == 'city' }.map { |n| n['part'] }
        [tile['name'], { count: tile['count'], unlimited: more['unlimited'] || tile['unlimited'],
                         rule: tile['optional_rule'], cities: cities, preprinted: tile['preprinted'] }]
      end
    end

    # name => { count:, unlimited:, only_with:, not_with: } (trains of an optional rule are added
    # elements of the extensions, `not_with_rule` marks a train a rule removes)
    def train_index(title)
      ext = title.dig('extensions', 'trains') || {}
      defs = title['trains'].map { |t| [t, ext[t['name']] || {}] }
      ext.each_value { |e| defs << [e['added'], e['added']] if e['added'] }
      defs.to_h do |t, more|
        [t['name'], { count: t['count'], unlimited: t['unlimited'], only_with: more['only_with_rule'],
                      not_with: more['not_with_rule'] }]
      end
    end
  end

  # Problems and counts for one fixture.
  class Check
    attr_reader :problems, :seen

    def initialize(facts, fixture)
      @facts = facts
      @rules = (fixture.dig('settings', 'optional_rules') || []).map(&:to_s)
      @problems = []
      @seen = Hash.new { |h, k| h[k] = [] }
      @preprinted_copies = facts.hexes.values.to_h { |h| ["#{h['tile']}-#{h['copy']}", h['coord']] }
      fixture['actions'].each { |action| check(action) }
    end

    def check(action)
      case action['type']
      when 'lay_tile'
        tile(action['tile'], action)
        hex(action['hex'], action)
      when 'buy_train', 'discard_train' then train(action['train'], action)
      when 'run_routes'
        action['routes'].each do |route|
          train(route['train'], action)
          (route['hexes'] || []).each { |h| hex(h, action) }
        end
      when 'place_token' then city(action['city'], action)
      when 'bid', 'buy_company'
        # A bid names a private, or a minor in 18Ireland's minor auction.
        action['company'] ? company(action['company'], action) : corporation(action['corporation'], action)
      when 'par'
        corporation(action['corporation'], action)
        @seen[:par] << action['share_price']
        miss(action, "par price #{action['share_price']}") unless @facts.pars.include?(action['share_price'])
      when 'buy_shares', 'sell_shares' then (action['shares'] || []).each { |s| share(s, action) }
      when 'take_loan', 'payoff_loan' then loan(action['loan'], action)
      when 'borrow_train' then train(action['train'], action)
      when 'remove_token' then city(action['city'], action)
      when 'merge' then corporation(action['corporation'], action) if action['corporation']
      when 'special_buy'
        @seen[:special_buy] << action['description']
        miss(action, "special_buy #{action['description']}: no such right") unless @facts.rights.include?(action['description'])
      when 'assign' then assign(action)
      end
    end

    def loan(id, action)
      @seen[:loans] << id
      miss(action, "loan #{id}: the bank has #{@facts.loans} loans") unless id.is_a?(Integer) && id < @facts.loans
    end

    def assign(action)
      company(action['entity'], action)
      return unless action['target_type'] == 'hex'

      hex(action['target'], action)
      hexes = @facts.assign_hexes[action['entity']] || []
      miss(action, "assign #{action['entity']} to #{action['target']}: not one of its hexes") unless hexes.include?(action['target'])
    end

    def miss(action, what)
      @problems << "action #{action['id']} (#{action['type']}): #{what}"
    end

    def split_copy(id)
      name, copy = id.to_s.match(/\A(.+)-(\d+)\z/)&.captures
      [name, copy&.to_i]
    end

    def tile(id, action)
      name, copy = split_copy(id)
      @seen[:tiles] << name
      t = @facts.tiles[name]
      return miss(action, "tile #{id}: no tile #{name}") unless t
      return miss(action, "tile #{id}: only with optional rule #{t[:rule]}") if t[:rule] && !@rules.include?(t[:rule])
      return if t[:unlimited] || copy < t[:count]

      miss(action, "tile #{id}: the manifest has #{t[:count]} of #{name}")
    end

    def train(id, action)
      name, copy = split_copy(id)
      @seen[:trains] << name
      t = @facts.trains[name]
      return miss(action, "train #{id}: no train #{name}") unless t
      return miss(action, "train #{id}: only with optional rule #{t[:only_with]}") if t[:only_with] && !@rules.include?(t[:only_with])
      return miss(action, "train #{id}: not with optional rule #{t[:not_with]}") if t[:not_with] && @rules.include?(t[:not_with])
      return if t[:unlimited] || copy < t[:count]

      miss(action, "train #{id}: the depot has #{t[:count]} of #{name}")
    end

    def hex(coord, action)
      @seen[:hexes] << coord
      miss(action, "hex #{coord} is not on the map") unless @facts.hexes.key?(coord)
    end

    # `57-1-0`: tile id, then the part index of a city.
    def city(id, action)
      tile_id, part = id.to_s.match(/\A(.+)-(\d+)\z/)&.captures
      name, = split_copy(tile_id)
      @seen[:cities] << id
      t = @facts.tiles[name]
      return miss(action, "city #{id}: no tile #{name}") unless t
      return miss(action, "city #{id}: #{name} has no city at part #{part}") unless t[:cities].include?(part.to_i)
      return unless t[:preprinted]

      miss(action, "city #{id}: no hex has the preprinted tile #{tile_id}") unless @preprinted_copies.key?(tile_id)
    end

    def company(sym, action)
      @seen[:companies] << sym
      miss(action, "private #{sym} unknown") unless @facts.companies.include?(sym)
    end

    def corporation(sym, action)
      @seen[:corporations] << sym
      miss(action, "corporation #{sym} unknown") unless @facts.corporations.key?(sym)
    end

    def share(id, action)
      sym, index = id.to_s.match(/\A(.+)_(\d+)\z/)&.captures
      corporation(sym, action)
      certificates = @facts.corporations[sym]
      return unless certificates

      return if index.to_i < certificates
      return if sym == @facts.national && @facts.extra_shares.include?(index.to_i)

      miss(action, "share #{id}: #{sym} has #{certificates} certificates")
    end
  end

  module_function

  def run(titles)
    missing = 0
    titles.each do |title|
      facts = Facts.new(File.join(DATA_DIR, title.downcase))
      # The fixture folder is the title's name, or in lower case (1836jr56)
      folder = [title, title.downcase].map { |name| File.join(FIXTURES_DIR, name) }.find { |d| File.directory?(d) }
      fixtures = folder ? Dir.glob(File.join(folder, '*.json')).sort : []
      abort("no fixtures in #{File.join(FIXTURES_DIR, title)}") if fixtures.empty?
      seen = Hash.new { |h, k| h[k] = [] }
      puts title
      fixtures.each do |path|
        fixture = JSON.parse(File.read(path))
        check = Check.new(facts, fixture)
        check.seen.each { |k, v| seen[k].concat(v) }
        status = check.problems.empty? ? 'covered' : "#{check.problems.size} missing"
        puts "  #{File.basename(path)}: #{fixture['actions'].size} actions, #{status}"
        check.problems.each { |p| puts "    #{p}" }
        missing += check.problems.size
      end
      puts "  used: #{seen[:tiles].uniq.size} tile types (#{seen[:tiles].size} lays), " \
           "#{seen[:trains].uniq.size} train types, #{seen[:hexes].uniq.size} hexes, " \
           "#{seen[:cities].uniq.size} token cities, #{seen[:companies].uniq.size} privates, " \
           "#{seen[:corporations].uniq.size} corporations, #{seen[:par].uniq.size} par prices"
      puts "  tiles: #{seen[:tiles].uniq.sort_by { |n| [n.to_i, n] }.join(' ')}"
      puts "  trains: #{seen[:trains].uniq.join(' ')}"
      puts "  loans: #{seen[:loans].size} actions, ids up to #{seen[:loans].max}" unless seen[:loans].empty?
      puts "  rights bought: #{seen[:special_buy].tally.map { |k, v| "#{k} #{v}" }.join(', ')}" unless seen[:special_buy].empty?
    end
    missing
  end
end

if $PROGRAM_NAME == __FILE__
  abort('usage: check_fixture_coverage.rb TITLE [...]') if ARGV.empty?
  exit(FixtureCoverage.run(ARGV).zero? ? 0 : 1)
end
