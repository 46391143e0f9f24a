-- :IRContext shows a result's warnings (the server's `warnings`) once a session: the server's
-- answer is given here (no path of Neovim's settings makes the server warn: Neovim answers
-- workspace/configuration without a folder's scope), what vim.notify is told is written as JSON.
-- Environment: IR_PLUGIN (the plugin folder), IR_ROOT (a folder), IR_OUT (the JSON file to write).
local out = { notes = {} }
local ok, err = pcall(function()
  vim.opt.rtp:append(os.getenv("IR_PLUGIN"))
  local ir = require("iterative-retrieval")
  ir.setup({ autostart = false, open_quickfix = false, echo_progress = false })
  vim.notify = function(msg, level)
    table.insert(out.notes, { msg = msg, warn = level == vim.log.levels.WARN })
  end
  local root = os.getenv("IR_ROOT")
  ir.execute = function(_, command, argument, cb)
    out.command, out.task = command, argument.task
    cb(nil, {
      files = { { path = "a.py", relevance = 0.9, band = "high", reason = "implements: x", regions = {} } },
      warnings = { "git base 'release/9' is no branch, tag or commit in " .. root },
    })
  end
  ir.context("fix the parser", { root = root })
  ir.context("fix the parser again", { root = root })
  out.qf = #vim.fn.getqflist()
end)
if not ok then
  out.error = tostring(err)
end
local f = assert(io.open(os.getenv("IR_OUT"), "w"))
f:write(vim.fn.json_encode(out))
f:close()
vim.cmd("qall!")
