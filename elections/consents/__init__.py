"""The spouse's consent to an election, a beneficiary designation, a loan or a withdrawal: one model
family, its services, selectors, presenters and pages. The areas that need a consent call this one;
it calls none of them, but reaches the thing consented to through ``subjects`` (a small protocol each
of those areas implements and registers at start-up)."""
