# frozen_string_literal: true

require 'json'

module TitleExport
  # Writes the JSON text of railnote's data files in their house layout: map.json has one compact
  # line per tile and per hex; title.json has one line per phase, train, corporation and market
  # row, with a private's abilities on continuation lines. Key order is the order of the hashes,
  # which the builders fix, so the same facts always give the same bytes.
  module Layout
    module_function

    # `{"a":1,"b":[2,3]}`: map.json tiles and hexes.
    def compact(value)
      JSON.generate(value)
    end

    # `{ "a": 1, "b": [2, 3] }`: title.json objects.
    def inline(value)
      case value
      when Hash
        return '{}' if value.empty?

        "{ #{value.map { |k, v| "#{k.to_s.to_json}: #{inline(v)}" }.join(', ')} }"
      when Array
        items = value.map { |v| inline(v) }.join(', ')
        # A list of objects has room inside its brackets: `[ { "a": 1 } ]`.
        !value.empty? && value.all?(Hash) ? "[ #{items} ]" : "[#{items}]"
      else
        JSON.generate(value)
      end
    end

    # `{"a": 1, "b": 2}`: the one-line `rules` object of map.json.
    def flow(value)
      return JSON.generate(value) unless value.is_a?(Hash)

      "{#{value.map { |k, v| "#{k.to_s.to_json}: #{flow(v)}" }.join(', ')}}"
    end

    def map_document(doc)
      out = +"{\n"
      entries = doc.map do |key, value|
        case key
        when 'tiles', 'hexes'
          rows = value.map { |row| "    #{compact(row)}" }
          "  #{key.to_json}: [\n#{rows.join(",\n")}\n  ]"
        when 'extensions'
          "  #{key.to_json}: #{nested(value, 2)}"
        else
          "  #{key.to_json}: #{flow(value)}"
        end
      end
      out << entries.join(",\n") << "\n}\n"
    end

    # Abilities longer than this wrap onto continuation lines.
    ABILITY_WIDTH = 140

    def title_document(doc)
      entries = doc.map do |key, value|
        case key
        when 'market', 'phases', 'corporations'
          list(key, value) { |item| inline(item) }
        when 'trains'
          list(key, value) { |train| train_line(train) }
        when 'companies'
          list(key, value) { |company| company_lines(company) }
        when 'corporation_kinds'
          rows = value.map { |kind, facts| "    #{kind.to_json}: #{inline(facts)}" }
          "  #{key.to_json}: {\n#{rows.join(",\n")}\n  }"
        when 'extensions'
          "  #{key.to_json}: #{nested(value, 2)}"
        else
          "  #{key.to_json}: #{inline(value)}"
        end
      end
      "{\n#{entries.join(",\n")}\n}\n"
    end

    def list(key, items)
      return "  #{key.to_json}: []" if items.empty?

      "  #{key.to_json}: [\n#{items.map { |item| "    #{yield(item)}" }.join(",\n")}\n  ]"
    end

    # A train's trade-in discounts go on a continuation line.
    def train_line(train)
      return inline(train) unless train.key?('discount')

      head = train.reject { |k, _| k == 'discount' }
      "#{inline(head).delete_suffix(' }')},\n      \"discount\": #{inline(train['discount'])} }"
    end

    def company_lines(company)
      head = company.reject { |k, _| k == 'abilities' }
      first = "#{inline(head).delete_suffix(' }')},"
      abilities = company['abilities'] || []
      return "#{inline(head).delete_suffix(' }')}, \"abilities\": [] }" if abilities.empty?

      prefix = '      "abilities": [ '
      indent = ' ' * prefix.size
      rendered = abilities.map { |ability| wrap_ability(ability, indent) }
      "#{first}\n#{prefix}#{rendered.join(",\n#{indent}")} ] }"
    end

    # One ability, broken between fields where a line would pass ABILITY_WIDTH.
    def wrap_ability(ability, indent)
      fields = ability.map { |k, v| "#{k.to_s.to_json}: #{inline(v)}" }
      lines = [+"{ #{fields.first}"]
      fields.drop(1).each do |field|
        width = lines.size == 1 ? indent.size + lines.last.size : lines.last.size
        if width + field.size + 2 > ABILITY_WIDTH
          lines.last << ','
          lines << (+"#{indent}  #{field}")
        else
          lines.last << ", #{field}"
        end
      end
      lines.last << ' }'
      lines.join("\n")
    end

    # Extensions: objects one key a line down to leaves that fit on a line.
    NESTED_WIDTH = 110

    def nested(value, depth)
      return inline(value) unless value.is_a?(Hash) && !value.empty?
      return inline(value) if depth + inline(value).size <= NESTED_WIDTH

      pad = ' ' * (depth + 2)
      rows = value.map { |k, v| "#{pad}#{k.to_s.to_json}: #{nested(v, depth + 2)}" }
      "{\n#{rows.join(",\n")}\n#{' ' * depth}}"
    end
  end
end
