# frozen_string_literal: true

# Exports titles afresh and compares them with the committed data/<title>/ files.
#
#   REF18XX=path/to/tobymao-18xx ruby tools/oracle/compare_title.rb [TITLE ...]   # default: 1836Jr30 18Ireland
#
# Per file it reports whether the bytes are identical and, if not, every difference:
# - facts: a value that differs once both sides are read the way the engine's serde structs
#   read them (object key order ignored, an absent field equal to its serde default);
#   these make the exit status 1;
# - defaults: a field one side writes out with its default value and the other leaves out;
# - extensions: what the export adds in its "extensions" area (facts the schema lacks);
# - layout: lines that differ only in spacing, wrapping or key order;
# and lists the title's overrides with why each is needed.

require 'json'
require 'tmpdir'
require_relative 'export_title'

module TitleCompare
  # Serde defaults of the optional fields, by the kind of object (src/engine/map/data.rs,
  # src/engine/title/mod.rs): a field absent on one side reads as this value.
  DEFAULTS = {
    'title' => { 'optional_bank_cash' => {}, 'random_setup' => false, 'minor_auction' => nil,
                 'major_par_phase' => nil, 'mergers' => false },
    'phase' => { 'minor_train_limit' => nil, 'can_buy_companies' => false },
    'train' => { 'unlimited' => false, 'reserve' => false, 'rusts_on' => nil, 'available_on' => nil,
                 'discount' => {}, 'events' => [] },
    'ability' => { 'must_lay_together' => false, 'first_hex' => nil, 'consumes_tile_lay' => false,
                   'closes_when_used' => false, 'connected' => false, 'when' => nil, 'par' => 'chosen',
                   'buys_first_train' => false },
    'corporation' => { 'kind' => 'major', 'home' => nil, 'home_city' => nil, 'color' => nil, 'text_color' => nil },
    'operating' => { 'only_normal_purchase_after_trade_in' => false, 'emergency_sales' => 'only_what_is_needed',
                     'emergency_from_others' => 'value', 'bankruptcy' => 'ends_game', 'home_token_first' => false },
    'tile_lay' => { 'not_if_upgraded' => false },
    'map' => { 'rules' => {} },
    'rules' => { 'gauges' => false, 'narrow_lay_free' => false, 'red_on_blue' => false,
                 'reservations_share_slots' => false },
    'tile' => { 'preprinted' => false, 'parts' => 0, 'nodes' => [], 'paths' => [], 'label' => nil,
                'upgrade_cost' => 0, 'terrain' => [], 'junction' => false },
    'node' => { 'slots' => 0, 'groups' => [], 'route' => 'mandatory' },
    'path' => { 'terminal' => false, 'track' => 'broad' },
    'hex' => { 'location' => nil, 'borders' => [], 'icons' => [] },
  }.freeze

  # The kind of the objects held under a key.
  KIND_OF = {
    'phases' => 'phase', 'trains' => 'train', 'abilities' => 'ability', 'corporations' => 'corporation',
    'operating' => 'operating', 'tile_lays' => 'tile_lay', 'rules' => 'rules', 'tiles' => 'tile',
    'nodes' => 'node', 'paths' => 'path', 'hexes' => 'hex',
  }.freeze

  module_function

  # The value with every field equal to its default dropped; `found` collects the dropped
  # fields as [path, value].
  def normalise(value, kind, path, found)
    case value
    when Hash
      defaults = DEFAULTS[kind] || {}
      value.each_with_object({}) do |(key, v), out|
        if defaults.key?(key) && defaults[key] == v
          found << ["#{path}.#{key}", v]
          next
        end
        out[key] = normalise(v, KIND_OF[key] || "#{kind}.#{key}", "#{path}.#{key}", found)
      end
    when Array
      value.each_with_index.map { |v, i| normalise(v, kind, "#{path}[#{label(v, i)}]", found) }
    else value
    end
  end

  def label(value, index)
    return index unless value.is_a?(Hash)

    value['sym'] || value['coord'] || value['name'] || index
  end

  # [path, committed, exported] for every difference.
  def differences(committed, exported, path = '')
    return [] if committed == exported

    if committed.is_a?(Hash) && exported.is_a?(Hash)
      (committed.keys | exported.keys).flat_map do |key|
        differences(committed.fetch(key, :absent), exported.fetch(key, :absent), "#{path}.#{key}")
      end
    elsif committed.is_a?(Array) && exported.is_a?(Array) && committed.size == exported.size
      committed.zip(exported).each_with_index.flat_map do |(c, e), i|
        differences(c, e, "#{path}[#{label(c, i)}]")
      end
    else
      [[path, committed, exported]]
    end
  end

  def show(value)
    value == :absent ? '(absent)' : JSON.generate(value)
  end

  # Prints the report of one file; returns the number of fact differences.
  def compare_file(name, committed_text, exported_text)
    if committed_text == exported_text
      puts "  #{name}: byte-identical"
      return 0
    end

    committed = JSON.parse(committed_text)
    exported = JSON.parse(exported_text)
    extensions = exported.delete('extensions') || {}
    root = name == 'map.json' ? 'map' : 'title'
    dropped_c = []
    dropped_e = []
    facts = differences(normalise(committed, root, '', dropped_c), normalise(exported, root, '', dropped_e))
    puts "  #{name}: bytes differ; #{facts.empty? ? 'same facts' : "#{facts.size} fact difference(s)"}"
    facts.each { |p, c, e| puts "    fact #{p}: committed #{show(c)}, exported #{show(e)}" }
    (dropped_c - dropped_e).each { |p, v| puts "    default #{p}: committed writes #{show(v)}, export leaves it out" }
    (dropped_e - dropped_c).each { |p, v| puts "    default #{p}: export writes #{show(v)}, committed leaves it out" }
    extensions.each_key { |key| puts "    extension #{key}: #{extension_summary(extensions[key])}" }
    layout_lines(committed_text, exported_text).each do |number, line|
      puts "    line #{number} not in the export: #{line.size > 110 ? "#{line[0, 107]}..." : line}"
    end
    facts.size
  end

  def extension_summary(value)
    return JSON.generate(value) unless value.is_a?(Hash)

    value.keys.join(', ')
  end

  # [line number, text] of the committed lines the export does not have byte for byte: the
  # differences above, and spacing, wrapping or key order (trailing blanks shown as `·`).
  def layout_lines(committed_text, exported_text)
    exported_lines = exported_text.lines.map(&:chomp)
    committed_text.lines.map(&:chomp).each_with_index.filter_map do |line, i|
      [i + 1, line.sub(/ +\z/) { |blanks| '·' * blanks.size }] unless exported_lines.include?(line)
    end
  end

  def run(titles)
    failures = 0
    titles.each do |title|
      dir = File.join(TitleExport::DATA_DIR, TitleExport.dir_name(title))
      puts "#{title} (data/#{TitleExport.dir_name(title)})"
      TitleExport.export(title).each do |name, text|
        path = File.join(dir, name)
        unless File.exist?(path)
          puts "  #{name}: no committed file"
          failures += 1
          next
        end
        failures += compare_file(name, File.read(path), text)
      end
      overrides = TitleExport::Overrides.load(File.join(TitleExport::OVERRIDES_DIR, "#{TitleExport.dir_name(title)}.json"),
                                              Engine.game_by_title(title))
      overrides.why.each { |key, why| puts "  override #{key}: #{why}" }
    end
    failures
  end
end

if $PROGRAM_NAME == __FILE__
  titles = ARGV.empty? ? %w[1836Jr30 18Ireland] : ARGV
  exit(TitleCompare.run(titles).zero? ? 0 : 1)
end
