# frozen_string_literal: true

# Exports a title's facts from the reference engine (tobymao/18xx) into railnote's data format:
# DIR/<title in lower case>/title.json and map.json.
#
#   REF18XX=path/to/tobymao-18xx ruby tools/oracle/export_title.rb TITLE [--out DIR] [--inline-extensions]
#   REF18XX=path/to/tobymao-18xx ruby tools/oracle/export_title.rb --upgrades TITLE
#
# TITLE is the reference's title name (1830, 1889, 18Chesapeake, 1836Jr30, 18Ireland). DIR
# defaults to the project's data/. Facts the data schema cannot hold yet go to an "extensions"
# object at the end of each file; --inline-extensions writes them in place instead (for the
# engine once its schema has them). Behaviour that railnote keeps as data but the reference
# keeps in code comes from tools/oracle/title_overrides/<title in lower case>.json.
# --upgrades prints instead, as JSON, which manifest tiles the reference lets replace each tile
# (to check railnote's upgrade rule against).
#
# The engine is loaded the way the shared oracle does (Oracle.load_engine!); the shared oracle
# is found beside the project (../shared/oracle) or at $RAILNOTE_ORACLE. Nothing of
# tobymao/18xx is copied: its game classes are loaded and read.

oracle_dir = ENV['RAILNOTE_ORACLE'] || File.expand_path('../../../shared/oracle', __dir__)
require File.join(oracle_dir, 'common')
require 'fileutils'
require_relative 'title_export/game_set'
require_relative 'title_export/map_facts'
require_relative 'title_export/title_facts'
require_relative 'title_export/layout'

module TitleExport
  OVERRIDES_DIR = File.join(__dir__, 'title_overrides')
  DATA_DIR = File.expand_path('../../data', __dir__)

  module_function

  def dir_name(title)
    title.downcase
  end

  # { 'title.json' => text, 'map.json' => text }
  def export(title, inline: false)
    Oracle.load_engine!
    games = GameSet.new(title)
    overrides = Overrides.load(File.join(OVERRIDES_DIR, "#{dir_name(title)}.json"), games.game_class)
    title_doc = TitleFacts.new(games, overrides).document
    map_doc = MapFacts.new(games, overrides).document
    map_ext = overrides.map_extensions
    map_doc[Extensions::EXT] = (map_doc[Extensions::EXT] || {}).merge(map_ext) unless map_ext.empty?
    {
      'title.json' => Layout.title_document(finish(title_doc, inline, TitleFacts::ORDER)),
      'map.json' => Layout.map_document(finish(map_doc, inline)),
    }
  end

  # The document with its extensions inlined, or split out to a final "extensions" object.
  def finish(doc, inline, order = [])
    doc = composed(doc)
    if inline
      # Extension fields of the top level go where the order puts them, others at the end.
      return Extensions.inline(doc).each_with_index
                                   .sort_by { |(k, _), i| [order.index(k) || order.size, i] }.to_h { |(k, v), _| [k, v] }
    end

    core, ext = Extensions.split(doc)
    ext.empty? ? core : core.merge('extensions' => ext)
  end

  # Text in composed Unicode form (NFC): the reference writes some accents as a letter and a
  # combining mark (1836Jr30's "Lille a\u0300 Valenciennes"); the data files use the single
  # character, as people type it.
  def composed(value)
    case value
    when Hash then value.to_h { |k, v| [composed(k), composed(v)] }
    when Array then value.map { |v| composed(v) }
    when String then value.unicode_normalize(:nfc)
    else value
    end
  end

  def upgrades(title)
    Oracle.load_engine!
    games = GameSet.new(title)
    overrides = Overrides.load(File.join(OVERRIDES_DIR, "#{dir_name(title)}.json"), games.game_class)
    MapFacts.new(games, overrides).upgrades_table
  end

  def write(title, out_dir, inline: false)
    dir = File.join(out_dir, dir_name(title))
    FileUtils.mkdir_p(dir)
    export(title, inline: inline).each do |name, text|
      File.write(File.join(dir, name), text)
    end
    dir
  end
end

if $PROGRAM_NAME == __FILE__
  args = ARGV.dup
  if args.delete('--upgrades')
    abort('usage: export_title.rb --upgrades TITLE') unless args.size == 1
    table = TitleExport.upgrades(args.first)
    puts "{\n#{table.map { |from, tos| "  #{from.to_json}: #{TitleExport::Layout.inline(tos)}" }.join(",\n")}\n}"
    exit
  end
  inline = !args.delete('--inline-extensions').nil?
  out = TitleExport::DATA_DIR
  if (i = args.index('--out'))
    out = args[i + 1] or abort('--out needs a directory')
    args.slice!(i, 2)
  end
  abort('usage: export_title.rb TITLE [--out DIR] [--inline-extensions]') unless args.size == 1

  dir = TitleExport.write(args.first, out, inline: inline)
  warn "wrote #{dir}/title.json and map.json"
end
