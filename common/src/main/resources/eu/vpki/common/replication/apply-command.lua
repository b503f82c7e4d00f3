-- Applies one replicated command atomically, at most once, and only after every earlier command of
-- its origin (see docs/replication.md and docs/design-replication-recovery.md).
-- KEYS[1]   per-origin table of the last applied sequence number (a hash: origin -> seq)
-- KEYS[2]   the origin's command log (a stream; entry id <seq>-0, field c = the encoded command)
-- KEYS[i+2] the key of operation i
-- ARGV[1]   origin (replica incarnation)
-- ARGV[2]   sequence number, zero-padded to 19 ASCII digits
-- ARGV[3]   the command as encoded on the wire (CommandCodec), kept in the log for peers that lack it
-- ARGV[4..] operations, in KEYS order:
--   P version nFields field value ...   put-if-newer (record = hash)
--   T version nFields field value ...   terminal put-if-newer: no later non-terminal write replaces it
--   D version                           delete-if-newer (tombstone)
--   A member                            set add
--   R member                            set remove
--   S value                             put string
--   L version field value prefix statusField status
--                                       pointer put-if-newer: the record {field: value}, never terminal, naming the
--                                       record at prefix..value; supersedes the loser's named record (below)
-- Versions are zero-padded to 19 digits so that byte-wise comparison is numeric comparison.
-- Returns 1 applied, 0 already applied (skipped), 2 rejected (a key holds another kind of value;
-- the sequence number and the log entry are still recorded), 3 gap (an earlier command of the origin
-- is not applied here yet: nothing written); or, when it applied and superseded records (see "Pointers"),
-- an array: 1 followed by the keys of the records it superseded (the state machine tells its listeners).
-- Pointers (L, Operation.PutPointerIfNewer): if the pointer put wins over the stored pointer, the record the
-- stored pointer named is superseded; if it loses, the record it names is superseded (nothing when both
-- name the same record). Superseding sets the status field and @terminal on the record as stored, keeping
-- its version, origin and other fields, and only if it exists, is live and is not terminal yet; a named
-- record that is not a hash is left alone (the one the command names was checked in the first pass).
-- Deterministic: no clock, no randomness, compares byte-wise (never locale-dependent).

local origin = ARGV[1]
local seq = ARGV[2]
local encoded = ARGV[3]

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

local number = tonumber(seq)
local last = redis.call('HGET', KEYS[1], origin)
if last then
  local applied = tonumber(last)
  if number <= applied then
    return 0
  end
  if number ~= applied + 1 then
    return 3
  end
elseif number ~= 1 then
  return 3
end

-- the log entry first: peers that lack this command fetch it from here, rejected or not
local stream_id = string.gsub(seq, '^0+', '') .. '-0'
redis.pcall('XADD', KEYS[2], stream_id, 'c', encoded)

local expected_type = { P = 'hash', T = 'hash', D = 'hash', L = 'hash', A = 'set', R = 'set', S = 'string' }

-- first pass: parse, read each record's stored version (HMGET, which also proves the key holds a
-- hash or nothing), and reject the whole command before writing anything if a key has another type
local ops = {}
local stored = {} -- key -> { version, origin, terminal } as stored, then as written by this command
local a = 4
for i = 3, #KEYS do
  local code = ARGV[a]
  local op = { code = code, key = KEYS[i] }
  if code == 'P' or code == 'T' then
    op.version = ARGV[a + 1]
    local n = tonumber(ARGV[a + 2])
    op.first = a + 3
    op.last = a + 2 + 2 * n
    a = a + 3 + 2 * n
  elseif code == 'D' then
    op.version = ARGV[a + 1]
    a = a + 2
  elseif code == 'L' then
    op.version = ARGV[a + 1]
    op.field = ARGV[a + 2]
    op.value = ARGV[a + 3]
    op.prefix = ARGV[a + 4]
    op.status_field = ARGV[a + 5]
    op.status = ARGV[a + 6]
    a = a + 7
  else
    op.value = ARGV[a + 1]
    a = a + 2
  end
  local wrong_type
  if code == 'P' or code == 'T' or code == 'D' or code == 'L' then
    if stored[op.key] == nil then
      local read = redis.pcall('HMGET', op.key, '@version', '@origin', '@terminal')
      wrong_type = read.err ~= nil
      if not wrong_type then
        stored[op.key] = { read[1] or false, read[2] or false, read[3] and true or false }
      end
    end
    if code == 'L' and not wrong_type then
      -- the record this pointer names must be a hash (or nothing) too
      wrong_type = redis.pcall('HMGET', op.prefix .. op.value, '@version').err ~= nil
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

-- whether a write of version by this origin wins over what key holds (stored or written before in
-- this command): a terminal write beats a non-terminal record, a non-terminal write never replaces a
-- terminal record, otherwise the higher (version, origin) wins; remembers the winner
local function wins(key, version, terminal)
  local current = stored[key]
  local result
  if not current[1] then
    result = true
  elseif current[3] ~= terminal then
    result = terminal
  elseif version ~= current[1] then
    result = after(version, current[1])
  else
    result = after(origin, current[2] or '')
  end
  if result then
    stored[key] = { version, origin, terminal }
  end
  return result
end

-- supersedes the record at key (see "Pointers" above); remembers it for the answer
local superseded = {}
local function supersede(key, status_field, status)
  local read = redis.pcall('HMGET', key, '@version', '@origin', '@terminal', '@deleted')
  if read.err ~= nil or not read[1] or read[3] or read[4] then
    return
  end
  redis.call('HSET', key, status_field, status, '@terminal', '1')
  stored[key] = { read[1], read[2] or false, true }
  superseded[#superseded + 1] = key
end

for _, op in ipairs(ops) do
  local code, key = op.code, op.key
  if code == 'P' or code == 'T' then
    local terminal = code == 'T'
    if wins(key, op.version, terminal) then
      redis.call('DEL', key)
      local args = { key, '@version', op.version, '@origin', origin }
      if terminal then
        args[#args + 1] = '@terminal'
        args[#args + 1] = '1'
      end
      for f = op.first, op.last do
        args[#args + 1] = ARGV[f]
      end
      redis.call('HSET', unpack(args))
    end
  elseif code == 'D' then
    if wins(key, op.version, false) then
      redis.call('DEL', key)
      redis.call('HSET', key, '@version', op.version, '@origin', origin, '@deleted', '1')
    end
  elseif code == 'L' then
    local named = redis.call('HGET', key, op.field)
    if wins(key, op.version, false) then
      redis.call('DEL', key)
      redis.call('HSET', key, '@version', op.version, '@origin', origin, op.field, op.value)
      if named and named ~= op.value then
        supersede(op.prefix .. named, op.status_field, op.status)
      end
    elseif named ~= op.value then
      supersede(op.prefix .. op.value, op.status_field, op.status)
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
if #superseded > 0 then
  local answer = { 1 }
  for _, key in ipairs(superseded) do
    answer[#answer + 1] = key
  end
  return answer
end
return 1
