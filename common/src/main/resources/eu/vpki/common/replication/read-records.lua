-- Reads records (hashes written by apply-command.lua) in one round trip, following references from
-- one record to another (see RecordReader and docs/replication.md).
-- KEYS[1..n]  records read as they are
-- ARGV        references, in triples: i field prefix
--             reads the record at prefix .. (the value of field in the i-th record read so far),
--             or nothing (an empty record) when that record or its field is absent
-- Returns one HGETALL array per record read: the n keys first, then one per reference, in order.
-- Read-only: a replica's applier may write between two calls, never during one.

local results = {}
for i = 1, #KEYS do
  results[i] = redis.call('HGETALL', KEYS[i])
end

local function field(record, name)
  for j = 1, #record, 2 do
    if record[j] == name then
      return record[j + 1]
    end
  end
  return nil
end

for a = 1, #ARGV, 3 do
  local from = results[tonumber(ARGV[a])]
  local value = from and field(from, ARGV[a + 1])
  if value then
    results[#results + 1] = redis.call('HGETALL', ARGV[a + 2] .. value)
  else
    results[#results + 1] = {}
  end
end
return results
