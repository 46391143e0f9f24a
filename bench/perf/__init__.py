"""Speed and memory at repository scale, side by side with ripgrep (`python -m bench.perf`)."""
