"""The project's fuzzer: seeded, structure-aware cases against ipu-opt, ipu-run,
ipu-lower-report and the compiled program's Python callable, each run in a forked child
with a timeout and sorted into outcome classes (`fuzz.outcomes`). `python -m fuzz --cases N
--seed S` runs a campaign."""
