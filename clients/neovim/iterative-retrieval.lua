-- Drive the iterative-retrieval language server from Neovim's built-in LSP client, headless,
-- and print what it finds. Works with Neovim 0.7 (Debian 12's) up to 0.11.
--
--   IR_TASK="Fix the authentication token expiry bug" IR_ROOT=/path/to/repo \
--     nvim --headless --clean -u NONE -c 'luafile clients/neovim/iterative-retrieval.lua'
--
-- Environment:
--   IR_TASK        the task in plain words (required)
--   IR_ROOT        the workspace folder (default: the current folder)
--   IR_FORMAT      json (default: the retrieve command's JSON object), or markdown or xml (the
--                  server's renderContext renders it)
--   IR_SERVER      the server command as a JSON array (default: ["iterative-retrieval","serve"])
--   IR_OPTIONS     initializationOptions as a JSON object, e.g. {"maxCycles":2,"cacheDir":"/tmp/c"}
--   IR_TIMEOUT_MS  how long to wait for the server (default 60000)
--   IR_ARGS        more retrieve arguments as a JSON object (docs/lsp.md), e.g.
--                  {"pinned":["src/a.ts"],"excluded":["src/b.ts"],"maxCycles":2}
-- The result goes to stdout; progress ("[progress] cycle 1/3: evaluating 14 candidates") and
-- errors go to stderr. Exit status: 0 on success, 1 on any error.
--
-- In an editor session the same calls work from your config: start the client with
-- vim.lsp.start_client (or vim.lsp.start on 0.8+) and call
-- client.request("workspace/executeCommand", {command = "iterativeRetrieval.retrieve",
-- arguments = {{task = "..."}}}, handler).

local function env(name, default)
  local v = os.getenv(name)
  if v == nil or v == "" then
    return default
  end
  return v
end

local function err(msg)
  io.stderr:write("iterative-retrieval.lua: " .. msg .. "\n")
end

local function finish(code)
  io.stdout:flush()
  io.stderr:flush()
  vim.cmd((code == 0 and "qall!") or ("cquit " .. code))
end

local function decode(name, text)
  local ok, value = pcall(vim.fn.json_decode, text)
  if not ok then
    err(name .. " is not valid JSON: " .. tostring(value))
    finish(1)
  end
  return value
end

local task = env("IR_TASK", nil)
if task == nil then
  err("set IR_TASK to the task in plain words")
  return finish(1)
end
local root = vim.fn.fnamemodify(env("IR_ROOT", vim.fn.getcwd()), ":p"):gsub("/$", "")
local format = env("IR_FORMAT", "json")
local timeout = tonumber(env("IR_TIMEOUT_MS", "60000"))
local cmd = decode("IR_SERVER", env("IR_SERVER", '["iterative-retrieval", "serve"]'))
local options = decode("IR_OPTIONS", env("IR_OPTIONS", "{}"))
local extra = decode("IR_ARGS", env("IR_ARGS", "{}"))
if vim.tbl_isempty(options) then
  options = vim.empty_dict()
end

local function on_progress(_, result, _)
  local value = result and result.value or {}
  local text = value.message or value.title or ""
  if value.kind == "begin" and value.title then
    text = value.title .. (value.message and (": " .. value.message) or "")
  end
  io.stderr:write(string.format("[progress] %s%s\n", text,
    value.percentage and string.format(" (%d%%)", value.percentage) or ""))
end

local function on_message(_, result, _)
  if result and result.message then
    io.stderr:write("[server] " .. result.message .. "\n")
  end
end

local ready = false
local client_id = vim.lsp.start_client({
  name = "iterative-retrieval",
  cmd = cmd,
  root_dir = root,
  workspace_folders = { { uri = vim.uri_from_fname(root), name = vim.fn.fnamemodify(root, ":t") } },
  init_options = options,
  settings = { iterativeRetrieval = options },
  handlers = {
    ["$/progress"] = on_progress,
    ["window/showMessage"] = on_message,
    ["window/logMessage"] = function() end,
  },
  on_init = function()
    ready = true
  end,
})
if not client_id then
  err("could not start the server: " .. table.concat(cmd, " "))
  return finish(1)
end
if not vim.wait(timeout, function() return ready end, 20) then
  err("the server did not initialize within " .. timeout .. " ms")
  return finish(1)
end

local client = vim.lsp.get_client_by_id(client_id)
local command, argument = "iterativeRetrieval.retrieve", { task = task }
if format == "markdown" or format == "xml" then
  command, argument = "iterativeRetrieval.renderContext", { task = task, format = format }
elseif format ~= "json" then
  err("IR_FORMAT must be json, markdown or xml, not " .. format)
  return finish(1)
end
local keyed = type(extra) == "table"
for k in pairs(keyed and extra or {}) do
  keyed = keyed and type(k) == "string"
end
if not keyed then
  err("IR_ARGS must be a JSON object of retrieve arguments")
  return finish(1)
end
argument = vim.tbl_extend("force", extra, argument)

local done, answer, failure = false, nil, nil
local params = { command = command, arguments = { argument } }
local function handler(e, result)
  done, answer, failure = true, result, e
end
if vim.fn.has("nvim-0.11") == 1 then
  client:request("workspace/executeCommand", params, handler)
else
  client.request("workspace/executeCommand", params, handler)
end
if not vim.wait(timeout, function() return done end, 20) then
  err(command .. " did not answer within " .. timeout .. " ms")
  return finish(1)
end

local code = 0
if failure then
  err(string.format("%s failed (%s): %s", command, tostring(failure.code), tostring(failure.message)))
  code = 1
elseif format ~= "json" then
  io.stdout:write(answer.text, "\n")
else
  io.stdout:write(vim.fn.json_encode(answer), "\n")
end

vim.lsp.stop_client(client_id)
vim.wait(3000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 20)
finish(code)
