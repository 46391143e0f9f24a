-- Drives clients/neovim as a user's config would, headless, and writes what it saw as JSON.
-- Environment: IR_PLUGIN (the plugin folder), IR_SERVER (the server command, JSON), IR_ROOT (the
-- workspace), IR_CACHE (the index folder), IR_OUT (the JSON file to write), IR_TASK.
local out = { progress = {} }

local function finish()
  local f = assert(io.open(os.getenv("IR_OUT"), "w"))
  f:write(vim.fn.json_encode(out))
  f:close()
  vim.cmd("qall!")
end

local ok, err = pcall(function()
  -- What a plugin manager does: the plugin folder on the runtimepath, then setup{}.
  vim.opt.rtp:append(os.getenv("IR_PLUGIN"))
  local ir = require("iterative-retrieval")
  ir.setup({
    cmd = vim.fn.json_decode(os.getenv("IR_SERVER")),
    settings = { cacheDir = os.getenv("IR_CACHE") },
    echo_progress = false,
  })
  -- A statusline's view of the progress: the plugin's status() at each vim.lsp progress event
  -- (read at once: the plugin's own handler, registered first, has run).
  local event = vim.fn.has("nvim-0.10") == 1 and "LspProgress" or "User"
  vim.api.nvim_create_autocmd(event, {
    pattern = event == "User" and "LspProgressUpdate" or "*",
    callback = function()
      table.insert(out.progress, ir.status())
    end,
  })
  out.version = vim.version and tostring(vim.version().major .. "." .. vim.version().minor) or "?"
  -- session-manager.ts open in a listed buffer, auth.ts the current one: the editor's files.
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("IR_ROOT") .. "/src/auth/session-manager.ts"))
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("IR_ROOT") .. "/src/auth/auth.ts"))
  out.root = ir.root_for()
  out.hints = ir.editor_hints(out.root)
  vim.cmd("IRContext " .. os.getenv("IR_TASK"))
  out.filled = vim.wait(90000, function() return #vim.fn.getqflist() > 0 end, 50)
  out.title = vim.fn.getqflist({ title = 1 }).title
  out.qf = {}
  for _, it in ipairs(vim.fn.getqflist()) do
    table.insert(out.qf, { file = vim.api.nvim_buf_get_name(it.bufnr), lnum = it.lnum, text = it.text })
  end
  out.quickfix_open = false
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.bo[vim.api.nvim_win_get_buf(w)].buftype == "quickfix" then
      out.quickfix_open = true
    end
  end
  out.reasons = {}
  for _, f in ipairs(ir.last.result.files) do
    out.reasons[f.path] = f.reason
  end
  vim.cmd("IRCopy a")
  vim.wait(60000, function() return vim.fn.getreg("a") ~= "" end, 50)
  out.register = vim.fn.getreg("a")
  -- :IRContextSelection over lines of a new file of the workspace, saved so the server reads it.
  vim.fn.setqflist({}, "r")
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("IR_ROOT") .. "/src/invoice-notes.ts"))
  vim.api.nvim_buf_set_lines(0, 0, -1, false, {
    "// unrelated first line", "// Where are invoices computed?", "export const invoiceTotals = 'computeInvoiceTotal';" })
  vim.cmd("write")
  vim.cmd("2IRContextSelection")
  vim.wait(90000, function() return #vim.fn.getqflist() > 0 end, 50)
  out.selection_title = vim.fn.getqflist({ title = 1 }).title
  out.selection_qf = #vim.fn.getqflist()
  out.selection_reasons = {}
  for _, f in ipairs(ir.last.result.files) do
    out.selection_reasons[f.path] = f.reason
  end
  -- :IRPin the current buffer's file (migrations.ts, which the task alone does not bring),
  -- :IRExclude tokens.ts by name, then the task again; :IRForget drops both.
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("IR_ROOT") .. "/src/db/migrations.ts"))
  vim.cmd("IRPin")
  vim.cmd("IRExclude " .. vim.fn.fnameescape(os.getenv("IR_ROOT") .. "/src/auth/tokens.ts"))
  out.steer = ir.steer_arguments(out.root)
  vim.fn.setqflist({}, "r")
  vim.cmd("IRContext " .. os.getenv("IR_TASK"))
  vim.wait(90000, function() return #vim.fn.getqflist() > 0 end, 50)
  out.steered = {}
  for _, f in ipairs(ir.last.result.files) do
    out.steered[f.path] = f.pinned or false
  end
  out.steered_qf = {}
  for _, it in ipairs(vim.fn.getqflist()) do
    table.insert(out.steered_qf, it.text)
  end
  vim.cmd("IRForget")
  out.forgotten = ir.steer_arguments(out.root)
  -- more pins than a hint list may hold: the newest are sent
  ir.steer[out.root] = { pinned = {}, excluded = {} }
  for i = 1, 205 do
    table.insert(ir.steer[out.root].pinned, out.root .. "/f" .. i .. ".ts")
  end
  local capped = ir.steer_arguments(out.root).pinned
  out.capped = { #capped, capped[1], capped[#capped] }
  ir.steer[out.root] = nil
end)
if not ok then
  out.error = tostring(err)
end
finish()
