-- SPDX-License-Identifier: GPL-3.0-or-later
-- bench/real/bench.lua - the Lua workload of bench/real.sh: an interpreter's usual mix (calls,
-- tables, strings, closures, sorting), deterministic, N rounds (the first argument); prints one
-- checksum line, the same for every correct build.
local n = tonumber(arg[1]) or 10

local function fib(k) if k < 2 then return k end return fib(k - 1) + fib(k - 2) end

local function tables(m)
  local t, s = {}, 0
  for i = 1, m do t[i] = (i * 7919) % 1000003 end
  table.sort(t)
  for i = 1, m, 97 do s = (s + t[i]) % 1000000007 end
  local h = {}
  for i = 1, m do h["k" .. (i % 4093)] = (h["k" .. (i % 4093)] or 0) + i end
  for _, v in pairs(h) do s = (s + v) % 1000000007 end
  return s
end

local function strings(m)
  local parts = {}
  for i = 1, m do parts[#parts + 1] = string.format("%d:%x", i, i * 31) end
  local str = table.concat(parts, ",")
  local c = 0
  for w in str:gmatch("%x+") do c = (c + #w) % 1000000007 end
  return c + #str:upper()
end

local function closures(m)
  local acc = 0
  local fs = {}
  for i = 1, 64 do fs[i] = function(x) return (x * i + acc) % 65521 end end
  for i = 1, m do acc = fs[i % 64 + 1](acc + i) end
  return acc
end

local sum = 0
for r = 1, n do
  sum = (sum + fib(20 + r % 3) + tables(20000) + strings(5000) + closures(50000)) % 1000000007
end
print(string.format("lua %d ok checksum=%d", n, sum))
