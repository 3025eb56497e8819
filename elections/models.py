"""The elections app's models, one module per area, imported here so Django sees them.

Each area keeps its own models module (docs/architecture.md): ``elections.claims.models`` (claims and
their appeals), ``elections.benefit_elections.models`` (notices, elections, designations),
``elections.consents.models`` (the spouse's consent), ``elections.account_elections.models``.
Importing from ``elections.models`` keeps working for all of them.
"""

from elections.account_elections.models import (  # noqa: E402,F401  (Django loads models from here)
    DeferralElection,
    DiversificationElection,
)
from elections.benefit_elections.models import (  # noqa: E402,F401  (Django loads models from here)
    BeneficiaryDesignation,
    Election,
    ElectionDraft,
    Notice,
    NoticeBatch,
    NoticeBatchItem,
)
from elections.claims.models import (  # noqa: F401  (Django loads models from here)
    COMMITTEE_OPEN,
    INITIAL_OPEN,
    REVIEW_OPEN,
    BeneficiaryLink,
    Claim,
    ClaimDetermination,
    ClaimDocument,
    ClaimEvent,
    ClaimNote,
    ClaimNotice,
    ClaimState,
    ClaimType,
    ClaimVote,
)
from elections.consents.models import SpousalConsent  # noqa: E402,F401  (Django loads models from here)
