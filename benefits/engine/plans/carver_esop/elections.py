"""Carver ESOP election rules: the base plan is not provided; a lump-sum ESOP outside §417 is assumed."""

from benefits.engine.elections import ElectionRules

ELECTION_RULES = ElectionRules(qjsa_applies=False, single_sum_needs_consent=False)
