/**
 * The shard leases' Lua scripts: each claim, renewal and release reads and writes every lease
 * it concerns in one step, so two processes never end up holding one shard each of a set.
 */

// Shared by the scripts. ARGV[1]: token, ARGV[2]: ttl ms, ARGV[3]: this process's lease as JSON
// without `beat`, which `ours` stamps with Redis' time. A value that is not such JSON (written
// by an older version) is its holder's token.
export const LEASE_LUA = `
local function holderOf(value)
  local ok, lease = pcall(cjson.decode, value)
  if ok and type(lease) == 'table' and type(lease.holder) == 'string' then return lease.holder end
  return value
end
local function ours()
  local now = redis.call('TIME')
  local lease = cjson.decode(ARGV[3])
  lease.beat = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
  return cjson.encode(lease)
end
`;

// KEYS: the leases. All or none: takes every lease unless another process holds one (so two
// processes configured for shards [0, 1] never end up with one each, both waiting). Returns ''
// when all are ours, else `<index>:<holder>` of the first one held elsewhere.
export const CLAIM = `${LEASE_LUA}
for i, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if holder and holderOf(holder) ~= ARGV[1] then return tostring(i - 1) .. ':' .. holderOf(holder) end
end
local value = ours()
for _, key in ipairs(KEYS) do redis.call('SET', key, value, 'PX', ARGV[2]) end
return ''`;

// KEYS: the leases of every shard 0..count-1. ARGV[4]: how many. Takes the first free ones, up
// to that many (fewer if fewer are free), in one step, so two processes starting together never
// take the same shard. Returns their indexes, none if every shard is held.
export const CLAIM_FREE = `${LEASE_LUA}
local taken = {}
for i, key in ipairs(KEYS) do
  if #taken >= tonumber(ARGV[4]) then break end
  local holder = redis.call('GET', key)
  if not holder or holderOf(holder) == ARGV[1] then table.insert(taken, i) end
end
local value = ours()
local indexes = {}
for _, i in ipairs(taken) do
  redis.call('SET', KEYS[i], value, 'PX', ARGV[2])
  table.insert(indexes, i - 1)
end
return indexes`;

// KEYS: the leases. Renews ours (a heartbeat), re-takes one Redis lost (restarted without
// persistence: nobody else holds it). Returns -1, else the index of a lease another process took.
export const RENEW = `${LEASE_LUA}
for i, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if holder and holderOf(holder) ~= ARGV[1] then return i - 1 end
end
local value = ours()
for _, key in ipairs(KEYS) do redis.call('SET', key, value, 'PX', ARGV[2]) end
return -1`;

// KEYS: the leases. ARGV: token. Frees those still ours.
export const RELEASE = `${LEASE_LUA}
for _, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if holder and holderOf(holder) == ARGV[1] then redis.call('DEL', key) end
end
return 0`;

// KEYS: leases whose holder was found dead. ARGV: the values read then. Frees each one still
// holding exactly that value: a holder that renewed meanwhile (a new beat) was not dead.
export const FREE_DEAD = `
local freed = 0
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[i] then
    redis.call('DEL', key)
    freed = freed + 1
  end
end
return freed`;
