"""Maintainer tooling shared by the scripts beside this folder: code generation, schema mutants, the stream model.

WHY a package under scripts/: these modules maintain the repository (they write generated/ and spec/, or judge the
vectors' strength) and never ship in the wheel; tests/ imports them through pytest's `pythonpath`, and the scripts
in scripts/ import them from their own folder.
"""
