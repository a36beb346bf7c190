# frozen_string_literal: true

require 'json'

module TitleExport
  # A title's override file (tools/oracle/title_overrides/<dir>.json): what railnote's data says
  # that the reference's facts do not, each entry explained under "why". Keys:
  #
  # - "title": top-level title.json fields, deep-merged over the exported ones (behaviour
  #   flags railnote models as data: auction all-pass rule, route rule, dividend moves, ...).
  #   A null removes an exported field.
  # - "companies": per private symbol, "abilities" (replaces the exported list),
  #   "ability_fields" (position in the list => fields merged into that ability),
  #   "ability_extensions" (position => fields for the extensions area) and "extensions"
  #   (fields of the private for the extensions area).
  # - "map_rules": flags of map.json's "rules" that are behaviour (gauges and reservations follow
  #   from the reference).
  # - "extensions" / "map_extensions": facts for the extensions area of title.json / map.json.
  # - "why": dotted path => why the override is needed (read by compare_title.rb and the note).
  #
  # A value {"$const": "NAME"} is replaced by the reference game class's constant NAME (facts
  # kept in constants the generic export does not read, such as 1889's beginner-game lists).
  class Overrides
    KEYS = %w[title companies map_rules extensions map_extensions why].freeze

    attr_reader :path

    def self.load(path, game_class)
      data = File.exist?(path) ? JSON.parse(File.read(path)) : {}
      unknown = data.keys - KEYS
      raise "#{path}: unknown override keys #{unknown.join(', ')}" unless unknown.empty?

      new(path, resolve(data, game_class))
    end

    def self.resolve(value, game_class)
      case value
      when Hash
        if value.keys == ['$const']
          jsonable(game_class.const_get(value['$const']))
        else
          value.transform_values { |v| resolve(v, game_class) }
        end
      when Array then value.map { |v| resolve(v, game_class) }
      else value
      end
    end

    def self.jsonable(value)
      case value
      when Hash then value.to_h { |k, v| [k.to_s, jsonable(v)] }
      when Array then value.map { |v| jsonable(v) }
      when Symbol then value.to_s
      else value
      end
    end

    def initialize(path, data)
      @path = path
      @data = data
    end

    def title_fields
      @data['title'] || {}
    end

    def company(sym)
      (@data['companies'] || {})[sym] || {}
    end

    def company_syms
      (@data['companies'] || {}).keys
    end

    def map_rules
      @data['map_rules'] || {}
    end

    def extensions
      @data['extensions'] || {}
    end

    def map_extensions
      @data['map_extensions'] || {}
    end

    def why
      @data['why'] || {}
    end

    # `base` with `over` merged in: hashes recursively, anything else replaced, nil removes.
    def self.deep_merge(base, over)
      return over unless base.is_a?(Hash) && over.is_a?(Hash)

      out = base.dup
      over.each do |key, value|
        if value.nil?
          out.delete(key)
        else
          out[key] = deep_merge(out[key], value)
        end
      end
      out
    end
  end
end
