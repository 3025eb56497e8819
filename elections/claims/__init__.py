"""Claims for benefits and their appeals (29 CFR 2560.503-1 and each plan's claims article).

Filing, the committee's review, decisions with their notices, deadlines and the appeal; see
docs/architecture.md for what each module holds.
"""
