# frozen_string_literal: true

module TitleExport
  # Facts railnote's data schema cannot hold yet ride along with the facts it can: a builder puts
  # them in an object's `EXT` hash (fields to add) or marks a whole list element with `ADDED` (an
  # element of a kind the schema lacks, e.g. a new ability type). `split` then takes them out into
  # one separate "extensions" object that mirrors the document (list elements keyed by name, sym,
  # coord, or their position in the list), so the engine reads exactly what it can express today;
  # `inline` puts them where the extended schema will want them.
  module Extensions
    EXT = '_ext'
    ADDED = '_added'

    module_function

    # [core, extensions]
    def split(value)
      case value
      when Hash then split_hash(value)
      when Array then split_array(value)
      else [value, {}]
      end
    end

    def split_hash(hash)
      core = {}
      ext = {}
      hash.each do |key, value|
        next if [EXT, ADDED].include?(key)

        c, e = split(value)
        core[key] = c
        ext[key] = e unless e.empty?
      end
      (hash[EXT] || {}).each { |key, value| ext[key] = plain(value) }
      [core, ext]
    end

    def split_array(list)
      core = []
      ext = {}
      list.each_with_index do |item, index|
        if item.is_a?(Hash) && item[ADDED]
          ext[identity(item, index)] = { 'added' => plain(item) }
          next
        end
        c, e = split(item)
        core << c
        ext[identity(item, index)] = e unless e.empty?
      end
      [core, ext]
    end

    # The document with every extension in place.
    def inline(value)
      case value
      when Hash
        out = {}
        value.each { |k, v| out[k] = inline(v) unless [EXT, ADDED].include?(k) }
        (value[EXT] || {}).each { |k, v| out[k] = plain(v) }
        out
      when Array then value.map { |v| inline(v) }
      else value
      end
    end

    # The value without markers (an added element may hold extension fields of its own).
    def plain(value)
      inline(value)
    end

    def identity(item, index)
      return index.to_s unless item.is_a?(Hash)

      (item['sym'] || item['coord'] || item['name'] || index).to_s
    end
  end
end
