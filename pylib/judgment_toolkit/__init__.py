"""judgment-toolkit: a memory of judgments for AI coding agents.

Subpackages: `judgment` (Judgment Ledger v1 and judgment-card.v1 decision cards) and `ha`
(the ha core and decision-history/v1). Package data (JSON Schemas, the card template, the
lexicon) is the top-level `templates/` folder, found through `judgment_toolkit.packaged`.
"""
