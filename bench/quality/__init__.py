"""Quality benchmark: how well each system ranks the files (and lines) real tasks needed.

Modules: `tasks` (load tasks, find their trees), `metrics` (pure scoring functions),
`baselines` (BM25 and keyword-count rankers), `ours` (the engine and its CLI),
`run` (command line and orchestration), `report` (Markdown tables).
"""
