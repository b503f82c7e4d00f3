-- The content of a replica's Redis as one digest, for deploy/compose-check.sh: every key with its type and value
-- (hash fields, set members and stream entries sorted or in order, stream entry ids left out: Redis makes them from
-- each server's own clock), sorted by key. Returns {number of keys, SHA-1 of the whole}. Read-only.
local keys = redis.call('KEYS', '*')
table.sort(keys)
local parts = {}
for _, k in ipairs(keys) do
  local t = redis.call('TYPE', k)['ok']
  local v
  if t == 'hash' then
    local h = redis.call('HGETALL', k)
    local fields = {}
    for i = 1, #h, 2 do fields[#fields + 1] = h[i] .. '=' .. h[i + 1] end
    table.sort(fields)
    v = table.concat(fields, ',')
  elseif t == 'set' then
    local m = redis.call('SMEMBERS', k)
    table.sort(m)
    v = table.concat(m, ',')
  elseif t == 'string' then
    v = redis.call('GET', k)
  elseif t == 'stream' then
    local entries = {}
    for _, e in ipairs(redis.call('XRANGE', k, '-', '+')) do entries[#entries + 1] = table.concat(e[2], '=') end
    v = table.concat(entries, ';')
  elseif t == 'zset' then
    v = table.concat(redis.call('ZRANGE', k, 0, -1, 'WITHSCORES'), ',')
  elseif t == 'list' then
    v = table.concat(redis.call('LRANGE', k, 0, -1), ',')
  else
    v = '?'
  end
  parts[#parts + 1] = k .. ' ' .. t .. ' ' .. v
end
return {#keys, redis.sha1hex(table.concat(parts, '\n'))}
