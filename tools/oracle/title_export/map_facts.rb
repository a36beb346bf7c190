# frozen_string_literal: true

require_relative 'extensions'
require_relative 'finance_facts'

module TitleExport
  # The map of a title in railnote's map.json format (schema: src/engine/map/data.rs): the tile
  # manifest, then one tile definition per preprinted hex tile, then the hexes. Read from the
  # reference's Tile and Hex objects, so tile codes are decoded by the reference itself.
  class MapFacts
    EXT = Extensions::EXT
    ADDED = Extensions::ADDED

    # Revenue colours the schema's Colour enum knows.
    COLOURS = %w[white yellow green brown gray blue red].freeze
    # Axes the schema assumes for each layout (data.rs `edge_offsets`).
    DEFAULT_AXES = { pointy: { x: :number, y: :letter }, flat: { x: :letter, y: :number } }.freeze

    def initialize(games, overrides)
      @games = games
      @game = games.default
      @overrides = overrides
    end

    def document
      doc = { 'title' => @game.class.title, 'layout' => layout }
      rules = map_rules
      doc['rules'] = rules unless rules.empty?
      doc['tiles'] = manifest_tiles + preprinted_tiles
      doc['hexes'] = hexes
      ext = map_extension_fields
      doc[EXT] = ext unless ext.empty?
      doc
    end

    def layout
      @game.class::LAYOUT.to_s
    end

    # Facts of the map the schema has no place for, at the top of map.json.
    def map_extension_fields
      ext = {}
      axes = @game.class.const_defined?(:AXES) ? @game.class::AXES : nil
      default = DEFAULT_AXES[@game.class::LAYOUT]
      ext['axes'] = axes.transform_keys(&:to_s).transform_values(&:to_s) if axes && axes != default
      ext
    end

    # For each tile definition, the manifest tiles the reference's upgrade rule (its
    # `upgrades_to?`: next colour, old track kept in some rotation, same label, same towns and
    # cities) lets replace it. Derived from the facts in map.json, so not written there: a table
    # to check railnote's own upgrade rule against (export_title.rb --upgrades).
    def upgrades_table
      manifest = @game.tiles.uniq(&:name)
      froms = manifest + preprinted_hexes.map(&:tile).uniq(&:name)
      froms.to_h do |from|
        [from.name, manifest.select { |to| @game.upgrades_to?(from, to) }.map(&:name)]
      end.reject { |_, tos| tos.empty? }
    end

    # MapRules: `reservations_share_slots` and `gauges` follow from the reference; the other
    # flags are behaviour and come from the title's override file.
    def map_rules
      rules = {}
      rules['gauges'] = true if gauges?
      rules.merge!(@overrides.map_rules)
      case @game.class::TILE_RESERVATION_BLOCKS_OTHERS
      when :never then rules['reservations_share_slots'] = true
      when :always then nil
      else raise "TILE_RESERVATION_BLOCKS_OTHERS #{@game.class::TILE_RESERVATION_BLOCKS_OTHERS} has no MapRules flag"
      end
      order = %w[gauges narrow_lay_free red_on_blue reservations_share_slots]
      rules.sort_by { |k, _| order.index(k) || order.size }.to_h
    end

    def gauges?
      tiles = @game.tiles + @game.hexes.map(&:tile)
      tiles.any? { |t| t.paths.any? { |p| p.track != :broad } }
    end

    def manifest_tiles
      default = @game.tiles.group_by(&:name)
      tiles = default.map do |name, copies|
        out = tile_def(copies.first, count: copies.size, name: name, preprinted: false)
        counts = rule_counts(name, copies.size)
        out[EXT] = (out[EXT] || {}).merge('count_by_rule' => counts) unless counts.empty?
        out
      end
      tiles + rule_only_tiles(default.keys)
    end

    # { rule => copies } where an optional rule changes the count of a manifest tile.
    def rule_counts(name, count)
      @games.rule_games.filter_map do |rule, game|
        n = game.tiles.count { |t| t.name == name }
        [rule, n] unless n == count
      end.to_h
    end

    # Tiles only an optional rule brings (1889's beginner tiles), as added elements.
    def rule_only_tiles(names)
      @games.rule_games.flat_map do |rule, game|
        game.tiles.group_by(&:name).reject { |name, _| names.include?(name) }.map do |name, copies|
          tile_def(copies.first, count: copies.size, name: name, preprinted: false)
            .merge('optional_rule' => rule, ADDED => true)
        end
      end
    end

    # One definition per preprinted tile name, with as many copies as hexes use it: a hex whose
    # code is a catalogue name (`blank`, `town`) shares the definition; a coded hex has its own,
    # named after its coordinate, with its index in its HEXES group as copy number.
    def preprinted_tiles
      manifest = @game.tiles.map(&:name).uniq
      hexes = preprinted_hexes
      names = hexes.map { |hex| hex.tile.name }
      hexes.uniq { |hex| hex.tile.name }.map do |hex|
        name = hex.tile.name
        raise "preprinted tile #{name} has the name of a manifest tile" if manifest.include?(name)

        tile_def(hex.tile, count: names.count(name), name: name, preprinted: true)
      end
    end

    def preprinted_hexes
      @game.hexes.select(&:tile)
    end

    def hexes
      ids = preprinted_hexes.map { |hex| hex.tile.id }
      twice = ids.select { |id| ids.count(id) > 1 }.uniq
      raise "preprinted tile ids #{twice.join(', ')} name several hexes" unless twice.empty?

      preprinted_hexes.map do |hex|
        tile = hex.tile
        row = { 'coord' => hex.id, 'tile' => tile.name, 'copy' => tile.index }
        row['location'] = hex.location_name if hex.location_name && !hex.location_name.empty?
        ext = {}
        borders = tile.borders.map { |b| border(b) }
        typed = borders.reject { |b| b['kind'] == 'line' }
        row['borders'] = typed unless typed.empty?
        # A border with no type only draws the line between the two halves of an off-board
        # area; the schema's borders need a kind.
        ext['borders'] = borders unless typed.size == borders.size
        # A destination's icon is drawn from the corporation's destination (title.json), which an
        # optional rule may move.
        sticky = tile.icons.select(&:sticky).map(&:name) - destination_icons
        row['icons'] = sticky unless sticky.empty?
        loose = tile.icons.reject(&:sticky).map(&:name)
        # Icons that go when the hex is built on (1889's ports mark where the Mitsubishi Ferry
        # may lay its port tile).
        ext['printed_icons'] = loose unless loose.empty?
        row[EXT] = ext unless ext.empty?
        row
      end
    end

    def destination_icons
      @destination_icons ||= FinanceFacts.new(@games).destination_icon_names
    end

    def border(border)
      out = { 'edge' => border.edge.to_i, 'kind' => border.type ? border.type.to_s : 'line' }
      out[EXT] = { 'cost' => border.cost.to_i } if border.cost
      out
    end

    def tile_def(tile, count:, name:, preprinted:)
      out = { 'name' => name, 'color' => tile.color.to_s, 'count' => count }
      ext = {}
      if tile.unlimited
        # The reference keeps one copy and adds another whenever it is laid.
        ext['unlimited'] = true
      end
      out['preprinted'] = true if preprinted
      out['parts'] = tile.parts.size
      nodes = node_parts(tile)
      paths = paths_of(tile, nodes)
      unless preprinted
        # A manifest tile's icon stays on the map; one that blocks lays makes the tile final
        # (1889's port tile).
        icons = tile.icons.map(&:name)
        ext['icons'] = icons unless icons.empty?
        ext['blocks_lay'] = true if tile.icons.any?(&:blocks_lay?)
      end
      out['junction'] = true if tile.junction
      out['nodes'] = nodes.map { |part| node(tile, part) } unless nodes.empty?
      out['paths'] = paths unless paths.empty?
      labels = tile.labels.map(&:to_s)
      out['label'] = labels.last unless labels.empty?
      ext['labels'] = labels if labels.size > 1
      upgrades(tile, out, ext)
      # A label for a later colour (1856's L, Lon, Bar; 1836Jr56's H): it stays with the hex
      # until a tile of that colour is laid, whose label must then be it.
      if (future = tile.future_label)
        ext['future_label'] = { 'label' => future.label.to_s, 'color' => future.color.to_s }
      end
      unknown = tile.parts.compact.reject do |p|
        p.city? || p.town? || p.offboard? || p.path? || p.junction? || p.label? || p.upgrade? || p.border? ||
          p.icon? || p.future_label?
      end
      ext['other_parts'] = unknown.map { |p| p.class.name.split('::').last.downcase } unless unknown.empty?
      out[EXT] = ext unless ext.empty?
      out
    end

    def upgrades(tile, out, ext)
      ups = tile.upgrades
      return if ups.empty?

      if ups.size > 1
        ext['upgrades'] = ups.map { |u| { 'cost' => u.cost.to_i, 'terrain' => (u.terrains || []).map(&:to_s) } }
        return
      end
      out['upgrade_cost'] = ups.first.cost.to_i
      terrain = (ups.first.terrains || []).map(&:to_s)
      out['terrain'] = terrain unless terrain.empty?
    end

    def node_parts(tile)
      tile.parts.compact.select { |p| p.city? || p.town? || p.offboard? }
    end

    def node(tile, part)
      kind = if part.city? then 'city'
             elsif part.offboard? then 'offboard'
             else 'town'
             end
      out = { 'part' => part.index, 'kind' => kind }
      ext = {}
      out['revenue'] = revenue(tile, part, ext)
      out['slots'] = part.slots if part.city?
      out['groups'] = part.groups unless part.groups.empty?
      out['route'] = part.route.to_s unless part.route == :mandatory
      ext['hide'] = true if part.hide
      ext['visit_cost'] = part.visit_cost unless part.visit_cost == 1
      out[EXT] = ext unless ext.empty?
      out
    end

    # A number when the code gives one value, else the per-colour map in code order. A value
    # for D trains (`diesel`, 1889) is not a tile colour: the schema's revenue map cannot hold
    # it, so the full map goes to the extensions.
    def revenue(tile, part, ext)
      code = tile.code.split(';')[part.index].to_s
      raw = code.split('=', 2)[1].to_s.split(',').map { |kv| kv.split(':', 2) }.to_h['revenue']
      return part.revenue.values.first unless raw&.include?('|')

      full = part.revenue.transform_keys(&:to_s)
      known = full.select { |colour, _| COLOURS.include?(colour) }
      ext['revenue'] = full if known.size != full.size
      known
    end

    def paths_of(tile, nodes)
      out = []
      junction_edges = []
      tile.paths.each do |path|
        if path.junction
          junction_edges << end_of(path.a, nodes) if path.a.edge?
          junction_edges << end_of(path.b, nodes) if path.b.edge?
          out << :junction unless out.include?(:junction)
          next
        end
        row = { 'a' => end_of(path.a, nodes), 'b' => end_of(path.b, nodes) }
        row['track'] = path.track.to_s unless path.track == :broad
        row['terminal'] = true if path.terminal
        out << row
      end
      # The schema has no junction node: a junction joining edges is every edge-to-edge path.
      pairs = junction_edges.combination(2).map { |a, b| { 'a' => a, 'b' => b } }
      out.flat_map { |row| row == :junction ? pairs : [row] }
    end

    def end_of(part, nodes)
      return "e#{part.num}" if part.edge?

      index = nodes.index(part)
      raise "path end #{part} is not a node of the tile" unless index

      "n#{index}"
    end
  end
end
