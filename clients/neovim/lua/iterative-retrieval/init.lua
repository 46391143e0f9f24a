-- iterative-retrieval for Neovim: the language server through Neovim's built-in LSP client.
--
--   require("iterative-retrieval").setup({})   -- then :IRContext {task}
--
-- :IRContext {task}          ranks the files the task needs and opens them in the quickfix list
--                            (file, first region's line, relevance, band, reason)
-- :[range]IRContextSelection the same with the selected lines as the task
--
-- Each retrieve also sends where you are (docs/lsp.md): the current buffer's file as
-- `activeFile`, the selected lines (:IRContextSelection) as `selection`, and the other listed
-- file buffers as `openFiles` — files under the root only.
-- :IRCopy [register]         the last result as Markdown for a chat, into a register
--                            (default: "+" where a clipboard exists, else the unnamed one)
-- :IRStatus                  the index state
-- :IRPin [file]              always hand out this file (default: the current buffer's), marked
--                            pinned, in every :IRContext of its root until :IRUnpin or :IRForget
-- :IRUnpin [file]            no longer
-- :IRExclude [file]          never hand out this file (until :IRForget)
-- :IRForget                  the root's pins and excludes, all of them
--
-- Progress ("cycle 2/3: evaluating 41 candidates") comes through vim.lsp's progress: the
-- LspProgress event (0.10+) or User LspProgressUpdate (0.7 to 0.9), and `status()` for a
-- statusline. Works with Neovim 0.7 (vim.lsp.start_client) up to 0.11 (vim.lsp.start).
-- The protocol: docs/lsp.md. Help: :help iterative-retrieval.

local M = {}

local defaults = {
  -- The server command; `iterative-retrieval` on PATH (pipx install ., uv tool install .).
  cmd = { "iterative-retrieval", "serve" },
  -- The workspace root for a buffer's folder: the nearest folder with one of these, else the
  -- current folder. A function(path) -> root may replace it.
  root_markers = { ".git", ".iterative-retrieval-ignore", "pyproject.toml", "package.json", "go.mod", "Cargo.toml" },
  root_dir = nil,
  -- Server settings (docs/lsp.md#configuration), e.g. { maxCycles = 2, cacheDir = "/tmp/ir" }.
  settings = {},
  -- Attach the server to the buffers opened under a root, so it sees unsaved edits.
  autostart = true,
  -- Open the quickfix window after :IRContext.
  open_quickfix = true,
  -- Echo the server's progress messages.
  echo_progress = true,
  -- :IRCopy's register when none is given (nil: "+" with a clipboard, else the unnamed one).
  register = nil,
  -- How long a request may take before it is given up, in milliseconds.
  timeout_ms = 120000,
}

M.config = vim.deepcopy(defaults)
M.last = nil -- { root =, task =, result = } of the last :IRContext
local clients = {} -- root -> client id
local initialized = {} -- client id -> true once the server answered initialize
local progress = {} -- client id -> last progress message
local seen = {} -- client id -> progress token -> what was last reported (before 0.10)

local has_011 = vim.fn.has("nvim-0.11") == 1
M.steer = {} -- root -> { pinned = { path, ... }, excluded = { path, ... } } (absolute paths)
M.warned = {} -- the result warnings already shown this session (docs/json-schema.md: warnings)

local function notify(msg, level)
  vim.notify("iterative-retrieval: " .. msg, level or vim.log.levels.INFO)
end

local function request(client, method, params, handler)
  if has_011 then
    return client:request(method, params, handler)
  end
  return client.request(method, params, handler)
end

--- The workspace root for `path` (a file or folder; default: the current buffer, else cwd).
function M.root_for(path)
  path = path ~= nil and path ~= "" and path or vim.api.nvim_buf_get_name(0)
  if path == "" then
    path = vim.fn.getcwd()
  end
  path = vim.fn.fnamemodify(path, ":p")
  if type(M.config.root_dir) == "function" then
    local r = M.config.root_dir(path)
    if r then
      return (vim.fn.fnamemodify(r, ":p"):gsub("/$", ""))
    end
  end
  local dir = vim.fn.isdirectory(path) == 1 and path or vim.fn.fnamemodify(path, ":h")
  for _, marker in ipairs(M.config.root_markers) do
    local found = vim.fn.finddir(marker, dir .. ";")
    if found == "" then
      found = vim.fn.findfile(marker, dir .. ";")
    end
    if found ~= "" then
      return (vim.fn.fnamemodify(found, ":p:h"):gsub("/%.git/?$", ""):gsub("/$", ""))
    end
  end
  return (vim.fn.getcwd():gsub("/$", ""))
end

local function client_by_id(id)
  local c = id and vim.lsp.get_client_by_id(id)
  if not c then
    return nil
  end
  local stopped
  if has_011 then
    stopped = c:is_stopped()
  else
    stopped = c.is_stopped()
  end
  return not stopped and c or nil
end

--- The client for `root`, started when needed (and attached to `bufnr` when given).
function M.start(root, bufnr)
  root = root or M.root_for()
  local settings = vim.tbl_isempty(M.config.settings) and vim.empty_dict() or M.config.settings
  local config = {
    name = "iterative-retrieval",
    cmd = M.config.cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = vim.fn.fnamemodify(root, ":t") } },
    init_options = settings,
    settings = { iterativeRetrieval = settings },
    on_init = function(client)
      initialized[client.id] = true
    end,
  }
  local existing = client_by_id(clients[root])
  if vim.lsp.start and (bufnr or has_011) then
    -- 0.8+: reuses the client of the same name and root and attaches the buffer (0.11: or none).
    local id = vim.lsp.start(config, bufnr and { bufnr = bufnr } or { attach = false })
    clients[root] = id
    return client_by_id(id)
  end
  if not existing then
    local id = vim.lsp.start_client(config)
    if not id then
      notify("could not start " .. table.concat(M.config.cmd, " "), vim.log.levels.ERROR)
      return nil
    end
    clients[root] = id
    existing = client_by_id(id)
  end
  if bufnr and existing then
    vim.lsp.buf_attach_client(bufnr, existing.id)
  end
  return existing
end

--- Runs `fn(client)` once the client for `root` has initialized.
local function with_client(root, fn)
  local named = vim.api.nvim_buf_get_name(0) ~= "" and vim.bo.buftype == ""
  local client = M.start(root, named and vim.api.nvim_get_current_buf() or nil)
  if not client then
    notify("the server did not start: is `" .. M.config.cmd[1] .. "` installed? (pipx install . from a checkout)",
      vim.log.levels.ERROR)
    return
  end
  local function ready()
    return client_by_id(client.id) ~= nil and initialized[client.id]
  end
  if ready() then
    return fn(client)
  end
  local waited = 0
  local timer = vim.loop.new_timer()
  timer:start(20, 20, vim.schedule_wrap(function()
    waited = waited + 20
    if ready() then
      timer:stop()
      timer:close()
      fn(client)
    elseif waited >= M.config.timeout_ms or not client_by_id(client.id) then
      timer:stop()
      timer:close()
      notify("the server did not initialize: see :LspLog", vim.log.levels.ERROR)
    end
  end))
end

--- Sends one server command; `cb(err, result)`.
function M.execute(root, command, argument, cb)
  with_client(root, function(client)
    local params = { command = command, arguments = argument and { argument } or {} }
    request(client, "workspace/executeCommand", params, function(err, result)
      cb(err, result)
    end)
  end)
end

local MAX_HINT_PATHS = 200 -- contract.py: the most paths one list argument may hold

--- The file of buffer `bufnr` when it is a file under `root` (an absolute path), else nil.
local function file_under(bufnr, root)
  if vim.bo[bufnr].buftype ~= "" then
    return nil
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == "" then
    return nil
  end
  local path = vim.fn.fnamemodify(name, ":p")
  if path:sub(1, #root + 1) ~= root .. "/" or vim.fn.filereadable(path) ~= 1 then
    return nil
  end
  return path
end

--- Where the user is, as retrieve arguments: `activeFile` (the current buffer's file),
--- `selection` (`lines` = { first, last }, 1-based, with an active file only) and `openFiles`
--- (the other listed file buffers), each under `root`.
function M.editor_hints(root, lines)
  local hints = {}
  local active = file_under(vim.api.nvim_get_current_buf(), root)
  if active then
    hints.activeFile = vim.uri_from_fname(active)
    if lines then
      hints.selection = { start_line = math.min(lines[1], lines[2]), end_line = math.max(lines[1], lines[2]) }
    end
  end
  local open = {}
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    local path = vim.bo[b].buflisted and file_under(b, root)
    if path and path ~= active and #open < MAX_HINT_PATHS then
      table.insert(open, vim.uri_from_fname(path))
    end
  end
  if #open > 0 then
    hints.openFiles = open
  end
  return hints
end

--- Quickfix items for a retrieve result: one per file, at its first region.
function M.quickfix_items(result, root)
  local items = {}
  for _, f in ipairs(result.files or {}) do
    local filename = f.uri and vim.uri_to_fname(f.uri) or ((f.root or root) .. "/" .. f.path)
    local first = f.regions and f.regions[1]
    table.insert(items, {
      filename = filename,
      lnum = first and first.start_line or 1,
      end_lnum = first and first.end_line or nil,
      col = 1,
      text = string.format("%.2f %s%s: %s", f.relevance or 0, f.band or "",
        f.pinned and ", pinned" or "", f.reason or ""),
    })
  end
  return items
end

--- The root's pins and excludes as retrieve arguments (`pinned`, `excluded`: file URIs).
function M.steer_arguments(root)
  local mine = M.steer[root] or {}
  local args = {}
  for _, key in ipairs({ "pinned", "excluded" }) do
    local paths = mine[key] or {}
    if #paths > 0 then -- the newest MAX_HINT_PATHS: the server takes no more
      args[key] = vim.tbl_map(vim.uri_from_fname, vim.list_slice(paths, math.max(1, #paths - MAX_HINT_PATHS + 1)))
    end
  end
  return args
end

--- Adds (`on`) or removes `file` (default: the current buffer's) in the root's `key` list
--- ("pinned" or "excluded"); a file is never both.
function M.steer_file(key, file, on)
  local path = file and file ~= "" and vim.fn.fnamemodify(vim.fn.expand(file), ":p")
    or vim.api.nvim_buf_get_name(0)
  if path == "" or vim.fn.filereadable(path) ~= 1 then
    notify("no file to " .. (key == "pinned" and "pin" or "exclude") .. ": give one, or open it", vim.log.levels.WARN)
    return
  end
  local root = M.root_for(path)
  if path:sub(1, #root + 1) ~= root .. "/" then
    notify(path .. " is outside the workspace root " .. root, vim.log.levels.WARN)
    return
  end
  local mine = M.steer[root] or { pinned = {}, excluded = {} }
  M.steer[root] = mine
  for _, k in ipairs({ "pinned", "excluded" }) do
    mine[k] = vim.tbl_filter(function(p) return p ~= path end, mine[k])
  end
  if on then
    table.insert(mine[key], path)
  end
  local rel = path:sub(#root + 2)
  notify(string.format("%s %s: the next :IRContext %s", on and (key == "pinned" and "pinned" or "excluded") or "released", rel,
    on and (key == "pinned" and "always hands it out" or "never hands it out") or "ranks it as any file"))
end

--- Ranks the files `task` needs and puts them in the quickfix list. `opts.lines`: the selected
--- lines { first, last } of the current buffer; `opts.arguments`: more retrieve arguments.
function M.context(task, opts)
  opts = opts or {}
  task = vim.trim(task or "")
  if task == "" then
    notify("give the task, e.g. :IRContext fix the token expiry bug", vim.log.levels.WARN)
    return
  end
  local root = opts.root or M.root_for()
  local argument = vim.tbl_extend("force", { task = task }, M.editor_hints(root, opts.lines),
    M.steer_arguments(root), opts.arguments or {})
  M.execute(root, "iterativeRetrieval.retrieve", argument, function(err, result)
    if err then
      notify("retrieve failed: " .. tostring(err.message or err), vim.log.levels.ERROR)
      return
    end
    M.last = { root = root, task = task, result = result }
    local items = M.quickfix_items(result, root)
    vim.fn.setqflist({}, " ", { title = "IRContext: " .. task:gsub("\n", " "), items = items })
    if M.config.open_quickfix then
      vim.cmd("copen")
    end
    notify(string.format("%d files for %q", #items, task:sub(1, 60)))
    -- what the run could not do as asked (a folder's stale gitBase): once a session, as VS
    -- Code does, not at every retrieve
    for _, warning in ipairs(result.warnings or {}) do
      if not M.warned[warning] then
        M.warned[warning] = true
        notify(warning, vim.log.levels.WARN)
      end
    end
  end)
end

--- The last result as Markdown (the server's renderContext), into `register`.
function M.copy(register)
  if not M.last then
    notify("no context yet: run :IRContext first", vim.log.levels.WARN)
    return
  end
  if register == nil or register == "" then
    register = M.config.register or (vim.fn.has("clipboard") == 1 and "+" or '"')
  end
  M.execute(M.last.root, "iterativeRetrieval.renderContext", { result = M.last.result, format = "markdown" },
    function(err, answer)
      if err then
        notify("renderContext failed: " .. tostring(err.message or err), vim.log.levels.ERROR)
        return
      end
      vim.fn.setreg(register, answer.text)
      notify(string.format("context copied to register %s (%d files)", register, #(M.last.result.files or {})))
    end)
end

--- The index state of the current root.
function M.index_status()
  M.execute(M.root_for(), "iterativeRetrieval.status", nil, function(err, s)
    if err then
      notify("status failed: " .. tostring(err.message or err), vim.log.levels.ERROR)
      return
    end
    notify(string.format("index %s, %s files", tostring(s.state), tostring(s.files)))
  end)
end

--- The last progress message of the current root's server (for a statusline).
function M.status()
  local id = clients[M.root_for()]
  return id and progress[id] or ""
end

local function on_progress(client_id, value)
  local c = client_by_id(client_id)
  if not c or c.name ~= "iterative-retrieval" or type(value) ~= "table" then
    return
  end
  local text = value.message or value.title or ""
  if value.kind == "begin" and value.title then
    text = value.title .. (value.message and (": " .. value.message) or "")
  elseif value.kind == "end" then
    text = value.message or "done"
  end
  progress[client_id] = text
  if M.config.echo_progress and text ~= "" then
    vim.api.nvim_echo({ { "iterative-retrieval: " .. text } }, false, {})
  end
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend("force", vim.deepcopy(defaults), opts or {})
  local group = vim.api.nvim_create_augroup("IterativeRetrieval", { clear = true })
  if vim.fn.has("nvim-0.10") == 1 then
    vim.api.nvim_create_autocmd("LspProgress", {
      group = group,
      callback = function(ev)
        local params = ev.data and ev.data.params
        on_progress(ev.data and ev.data.client_id, params and params.value)
      end,
    })
  else
    vim.api.nvim_create_autocmd("User", {
      group = group,
      pattern = "LspProgressUpdate",
      callback = function()
        -- Before 0.10 the event says only that some progress changed: report the tokens whose
        -- message did, so the last message is the newest one, not the last token listed.
        for _, id in pairs(clients) do
          local client = client_by_id(id)
          local messages = client and client.messages and client.messages.progress
          if messages then
            seen[id] = seen[id] or {}
            for token, p in pairs(messages) do
              local key = table.concat({ p.title or "", p.message or "", tostring(p.done) }, "\0")
              if seen[id][token] ~= key then
                seen[id][token] = key
                on_progress(id, { kind = p.done and "end" or "report", title = p.title, message = p.message })
              end
            end
          end
        end
      end,
    })
  end
  if M.config.autostart then
    vim.api.nvim_create_autocmd("BufReadPost", {
      group = group,
      callback = function(ev)
        local name = vim.api.nvim_buf_get_name(ev.buf)
        if name ~= "" and vim.bo[ev.buf].buftype == "" then
          M.start(M.root_for(name), ev.buf)
        end
      end,
    })
  end
  vim.api.nvim_create_user_command("IRContext", function(c)
    M.context(c.args)
  end, { nargs = "+", desc = "iterative-retrieval: the files a task needs, in the quickfix list" })
  vim.api.nvim_create_user_command("IRContextSelection", function(c)
    M.context(table.concat(vim.fn.getline(c.line1, c.line2), "\n"), { lines = { c.line1, c.line2 } })
  end, { range = true, desc = "iterative-retrieval: the selected lines as the task" })
  vim.api.nvim_create_user_command("IRCopy", function(c)
    M.copy(c.args)
  end, { nargs = "?", desc = "iterative-retrieval: the last context as Markdown, into a register" })
  vim.api.nvim_create_user_command("IRStatus", function()
    M.index_status()
  end, { desc = "iterative-retrieval: the index state" })
  vim.api.nvim_create_user_command("IRPin", function(c)
    M.steer_file("pinned", c.args, true)
  end, { nargs = "?", complete = "file", desc = "iterative-retrieval: always hand out this file" })
  vim.api.nvim_create_user_command("IRUnpin", function(c)
    M.steer_file("pinned", c.args, false)
  end, { nargs = "?", complete = "file", desc = "iterative-retrieval: no longer pin this file" })
  vim.api.nvim_create_user_command("IRExclude", function(c)
    M.steer_file("excluded", c.args, true)
  end, { nargs = "?", complete = "file", desc = "iterative-retrieval: never hand out this file" })
  vim.api.nvim_create_user_command("IRForget", function()
    local root = M.root_for()
    M.steer[root] = nil
    notify("forgot the pins and excludes of " .. root)
  end, { desc = "iterative-retrieval: forget the root's pins and excludes" })
end

return M
