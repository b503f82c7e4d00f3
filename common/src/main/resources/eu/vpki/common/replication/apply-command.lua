-- Applies one replicated command atomically and at most once (see docs/replication.md).
-- KEYS[1]   per-origin table of the last applied sequence number (a hash: origin -> seq)
-- KEYS[i+1] the key of operation i
-- ARGV[1]   origin replica id
-- ARGV[2]   sequence number, zero-padded to 19 digits
-- ARGV[3..] operations, in KEYS order:
--   P version nFields field value ...   put-if-newer (record = hash)
--   D version                           delete-if-newer (tombstone)
--   A member                            set add
--   R member                            set remove
--   S value                             put string
-- Versions are zero-padded to 19 digits so that byte-wise comparison is numeric comparison.
-- Returns 1 applied, 0 already applied (skipped), 2 rejected (a key holds another kind of value).
-- Deterministic: no clock, no randomness, compares byte-wise (never locale-dependent).

local origin = ARGV[1]
local seq = ARGV[2]

local function after(a, b)
  local n = math.min(#a, #b)
  for i = 1, n do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then
      return x > y
    end
  end
  return #a > #b
end

local last = redis.call('HGET', KEYS[1], origin)
if last and not after(seq, last) then
  return 0
end

local expected_type = { P = 'hash', D = 'hash', A = 'set', R = 'set', S = 'string' }

-- first pass: parse, read each record's stored version (HMGET, which also proves the key holds a
-- hash or nothing), and reject the whole command before writing anything if a key has another type
local ops = {}
local stored = {} -- key -> { version, origin } as stored, then as written by this command
local a = 3
for i = 2, #KEYS do
  local code = ARGV[a]
  local op = { code = code, key = KEYS[i] }
  if code == 'P' then
    op.version = ARGV[a + 1]
    local n = tonumber(ARGV[a + 2])
    op.first = a + 3
    op.last = a + 2 + 2 * n
    a = a + 3 + 2 * n
  elseif code == 'D' then
    op.version = ARGV[a + 1]
    a = a + 2
  else
    op.value = ARGV[a + 1]
    a = a + 2
  end
  local wrong_type
  if code == 'P' or code == 'D' then
    if stored[op.key] == nil then
      local read = redis.pcall('HMGET', op.key, '@version', '@origin')
      wrong_type = read.err ~= nil
      if not wrong_type then
        stored[op.key] = { read[1] or false, read[2] or false }
      end
    end
  else
    local actual = redis.call('TYPE', op.key).ok
    wrong_type = actual ~= 'none' and actual ~= expected_type[code]
  end
  if wrong_type then
    redis.call('HSET', KEYS[1], origin, seq)
    return 2
  end
  ops[#ops + 1] = op
end

-- whether a write of version by this origin wins over what key holds (stored or written before
-- in this command); remembers it as the key's version when it does
local function newer(key, version)
  local current = stored[key]
  local wins
  if not current[1] then
    wins = true
  elseif version ~= current[1] then
    wins = after(version, current[1])
  else
    wins = after(origin, current[2] or '')
  end
  if wins then
    stored[key] = { version, origin }
  end
  return wins
end

for _, op in ipairs(ops) do
  local code, key = op.code, op.key
  if code == 'P' then
    if newer(key, op.version) then
      redis.call('DEL', key)
      if op.last >= op.first then
        redis.call('HSET', key, '@version', op.version, '@origin', origin, unpack(ARGV, op.first, op.last))
      else
        redis.call('HSET', key, '@version', op.version, '@origin', origin)
      end
    end
  elseif code == 'D' then
    if newer(key, op.version) then
      redis.call('DEL', key)
      redis.call('HSET', key, '@version', op.version, '@origin', origin, '@deleted', '1')
    end
  elseif code == 'A' then
    redis.call('SADD', key, op.value)
  elseif code == 'R' then
    redis.call('SREM', key, op.value)
  elseif code == 'S' then
    redis.call('SET', key, op.value)
  end
end

redis.call('HSET', KEYS[1], origin, seq)
return 1
