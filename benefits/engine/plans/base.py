"""The plan protocol: what every plan package offers, and the capabilities only some plans have.

Every plan package exports one object, ``PLAN``, that satisfies ``Plan``; the registry
(``benefits.engine.plans``) maps contract plan keys to them. Callers outside the engine ask a plan
through this protocol and never import a plan package.

Every plan has a key, a title, settings groups (frozen dataclasses, ``settings_classes``), a core
result (service, vesting, retirement dates: ``core_result``) and the contract result
(``calculate``). What only some plans offer is an attribute that is ``None`` when the plan lacks it,
or a capability object when it has it:

* ``claim_rules``: the plan's claims article (deadlines, deciders, voting, filing lead days, notice
  before an in-service payment, claim types that need an election and spousal consent);
* ``loans``: participant loans (minimum, term, rate, payments a year, first due date, schedule);
* ``hardship``: hardship distributions (the deemed reasons, their sections and evidence);
* ``grid``: the modeler's price grid (every commencement month, every form);
* ``source_accounts`` / ``share_accounts`` / ``ledger``: statements for any period (401(k)-style
  source accounts; ESOP share and cash accounts; a cash-balance account's ledger);
* ``contributions``: the contribution formulas (deferrals and match) for account histories;
* ``cash_out`` / ``diversification``: where the contract result reports them and under which sections
  (an ESOP's ``diversification`` also says, in plain words, how the plan carries out an election);
* ``deferrals``: the participant's elective deferral rate and how often it may change (``DeferralProgram``);
* ``election_rules``: the plan's election period and spousal-consent rules (``benefits.engine.elections``);
* ``beneficiary_rules``: beneficiary designations outside an election (the default order, whether the
  spouse is the default and must consent to anyone else, ``benefits.engine.beneficiaries``);
* ``account_distributions``: an account plan's non-annuity optional forms (installments, a partial
  single sum, a direct rollover, deferral) with their terms and sections; the contract result gives
  each estimate's ``account_options`` from them (``benefits.engine.account_options``);
* ``market_needs``: the market rates (series and month) the plan reads for a calculation date, each
  with the plan section that asks for it (``benefits.engine.market_needs``).

See docs/adding-a-plan.md for the package shape and a walk-through.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ..account_options import AccountDistributionRules
from ..claims import PlanClaimRules
from ..core import CoreResult, ParticipantError, core_with_settings, history_dict
from ..deferral_limits import DeferralLimit
from ..trace import Trace, recording
from ..types import Participant

if TYPE_CHECKING:  # the plan's rule types only: those modules look plans up through the registry
    from ..beneficiaries import BeneficiaryRules
    from ..elections import ElectionRules
    from ..market_needs import PlanNeeds

JSON = dict[str, Any]
CoreFn = Callable[..., CoreResult]
OutputsFn = Callable[[Participant, date, Mapping[str, Any], CoreResult], JSON]
# The market rates a plan reads for a calculation date, each citing its section (``market_needs``).
MarketNeedsFn = Callable[[date, Mapping[str, object]], "PlanNeeds"]


# ------------------------------------------------------------------------------ capabilities


@dataclass(frozen=True)
class LoanTerms:
    """A plan's loan terms in its own words, each with the section that says it, for the note, the
    claim's checks and the claim form (a generic web app prints them, never a plan's section numbers).
    Each ``*_words`` is a clause that reads after "The loan's ..." or on its own, without a full stop."""

    maximum_words: str  # how the largest loan is set
    maximum_section: str
    minimum_section: str
    one_at_a_time_section: str  # only one loan outstanding at a time ("" when the plan allows more)
    rate_words: str  # how the rate follows from the prime rate of the month of the request
    rate_section: str
    term_section: str
    repayment_words: str  # how and how often repayments are made
    repayment_section: str
    first_due_words: str  # when the first repayment falls, after the approval date
    default_words: str  # what makes a loan in default and what follows (the cure rule)
    default_section: str


class LoanProgram(Protocol):
    """Participant loans: the rules a loan request is checked against and the schedule it gets."""

    @property
    def minimum(self) -> Decimal: ...

    @property
    def terms(self) -> LoanTerms:
        """The plan's loan terms in words, with their sections."""
        ...

    def check_term(self, term_months: int, *, principal_residence: bool = False) -> None:
        """Raise ``ValueError`` (naming the section) when the term is not allowed."""

    def rate(self, prime_percent: object) -> tuple[Decimal, Trace]:
        """The loan rate (a percent) from the prime rate of the month of the request."""
        ...

    def payments_per_year(self, *, employed: bool) -> int:
        """How often repayments fall due (payroll while employed, else the plan's cash frequency)."""
        ...

    def first_due(self, decided_on: date) -> date:
        """The first repayment date expected for a loan decided on ``decided_on``."""
        ...

    def schedule(
        self,
        principal: object,
        annual_rate_percent: object,
        number_of_payments: int,
        *,
        first_due: date,
        periods_per_year: int,
    ) -> Any:
        """The amortization schedule (``principal``, ``level_payment``, ``total_interest``, ``payments``)."""
        ...

    def default(self, missed_due_date: date, *, employed: bool) -> Any:
        """When a loan whose payment was missed on ``missed_due_date`` is in default (``default_date``,
        the end of the plan's cure period) and when its lien is foreclosed (``foreclosure``, ``trace``)."""
        ...


@dataclass(frozen=True)
class HardshipReason:
    """One need the plan deems immediate and heavy."""

    value: str
    label: str  # plain words for the claim form
    section: str
    evidence: tuple[str, ...]  # what the committee asks to see


@dataclass(frozen=True)
class HardshipRules:
    reasons: tuple[HardshipReason, ...]
    reasons_section: str  # where the plan lists the deemed needs

    def reason(self, value: str) -> HardshipReason:
        """The reason with this value (``ValueError`` if the plan has none such)."""
        for r in self.reasons:
            if r.value == value:
                return r
        raise ValueError(f"{value!r} is not one of the plan's hardship reasons")


@dataclass(frozen=True)
class PlanFeature:
    """A benefit feature the contract result reports under ``result_key`` (e.g. a cash-out)."""

    result_key: str
    sections: str


@dataclass(frozen=True)
class DiversificationProgram(PlanFeature):
    """An ESOP's diversification election (Code §401(a)(28)(B)). The contract result reports the open
    window and the maximum shares under ``result_key``; ``methods`` says in plain words how the plan
    carries out an election, ``completion`` when, and ``election_sections`` which provisions govern it."""

    methods: tuple[str, ...] = ()
    completion: str = ""
    election_sections: str = ""


@dataclass(frozen=True)
class DeferralKind:
    """One kind of elective deferral the plan takes (before-tax; Roth where the plan has it)."""

    value: str
    label: str  # plain words for the page
    section: str


class DeferralProgram(Protocol):
    """Elective deferrals: the rates the plan allows and when a change takes effect."""

    @property
    def kinds(self) -> tuple[DeferralKind, ...]: ...

    @property
    def min_percent(self) -> int: ...

    @property
    def max_percent(self) -> int: ...

    @property
    def rate_section(self) -> str: ...

    @property
    def change_rule(self) -> str:
        """In plain words: how often and how far ahead a change may be made."""
        ...

    def check_rate(self, percent: Decimal) -> tuple[str, ...]:
        """What is wrong with this rate under the plan's percentage rules (each reason names the rule)."""
        ...

    def next_effective(
        self, filed_on: date, earlier: Sequence[tuple[date, Decimal]], percent: Decimal, settings: Any = None
    ) -> date:
        """The first day a change to ``percent`` filed on ``filed_on`` may take effect, given the
        earlier changes (filing date, rate) the participant made."""
        ...

    def quarter_used(
        self, filed_on: date, earlier: Sequence[tuple[date, Decimal]], settings: Any = None
    ) -> bool:
        """Whether the change the plan allows in this period was already made."""
        ...

    def check_change(
        self,
        filed_on: date,
        effective_on: date,
        percent: Decimal,
        earlier: Sequence[tuple[date, Decimal]],
        settings: Any = None,
    ) -> tuple[str, ...]:
        """Why this change may not be made (empty when it may)."""
        ...

    def annual_limit(self, year: int, birth_date: date) -> DeferralLimit: ...

    def estimate(self, percent: Decimal, annual_pay: Decimal, year: int, birth_date: date) -> Any:
        """What the rate defers in the year (``amount``, ``pay_counted``, ``limit``, ``stops_at_limit``)."""
        ...


@dataclass(frozen=True)
class GridPricing:
    """The modeler's price grid: ``price(participant, as_of, assumptions, core=None)``.

    ``outputs``: the plan's contract keys for every commencement date in one vectorized pass, without
    traces (``OutputsFn``, equal key for key to ``PackagePlan.outputs`` less its ``traces``).
    ``PackagePlan.calculate`` takes it whenever traces are off (``trace.traces_off``: the web
    modeler, the claim form's check, the command line with ``options.traces`` false); a trace is then
    computed on demand for the one date a person opens, on the traced path."""

    price: Callable[..., Any]
    outputs: OutputsFn | None = None


@dataclass(frozen=True)
class SourceAccounts:
    """401(k)-style source accounts: ``statement(...)`` takes ``transaction(on, source, kind, amount)``
    rows whose ``kind`` is one of ``kinds``; ``settings_class`` is the benefit settings group it uses."""

    kinds: type
    transaction: type
    statement: Callable[..., Any]
    settings_class: type
    default_settings: Any


@dataclass(frozen=True)
class ShareAccounts:
    """ESOP share and cash accounts: ``statement(...)`` takes ``entry(on, kind, shares=, cash=)`` rows."""

    entry: type
    kinds: tuple[str, ...]
    statement: Callable[..., Any]


@dataclass(frozen=True)
class LedgerStatements:
    """A cash-balance account's ledger for a period:
    ``statement(participant, as_of, assumptions, start, end, core)`` (opening, credits, closing, entries)."""

    statement: Callable[..., Any]


@dataclass(frozen=True)
class ContributionRules:
    """The contribution formulas: the year's contributions from pay and deferrals, the match on one
    pay period, and the account source a match made on a date goes to."""

    year_contributions: Callable[..., Any]
    period_match: Callable[..., Any]
    match_source: Callable[[date], str]


# ------------------------------------------------------------------------------ the protocol


@runtime_checkable
class Plan(Protocol):
    """What every plan package's ``PLAN`` offers (see the module docstring for the capabilities)."""

    @property
    def key(self) -> str: ...

    @property
    def title(self) -> str: ...

    def settings_classes(self) -> dict[str, type]:
        """The settings groups (name → frozen dataclass); ``service_vesting`` is always one."""
        ...

    def default_settings(self) -> dict[str, Any]: ...

    def core_result(
        self, participant: Participant, as_of: date, settings: Mapping[str, Any] | None = None
    ) -> CoreResult: ...

    def calculate(
        self,
        participant: Participant,
        as_of: date,
        assumptions: Mapping[str, Any],
        settings: Mapping[str, Any] | None = None,
        *,
        detail: bool = False,
    ) -> JSON: ...

    @property
    def claim_rules(self) -> PlanClaimRules | None: ...

    @property
    def loans(self) -> LoanProgram | None: ...

    @property
    def hardship(self) -> HardshipRules | None: ...

    @property
    def grid(self) -> GridPricing | None: ...

    @property
    def source_accounts(self) -> SourceAccounts | None: ...

    @property
    def share_accounts(self) -> ShareAccounts | None: ...

    @property
    def ledger(self) -> LedgerStatements | None: ...

    @property
    def contributions(self) -> ContributionRules | None: ...

    @property
    def cash_out(self) -> PlanFeature | None: ...

    @property
    def diversification(self) -> DiversificationProgram | None: ...

    @property
    def deferrals(self) -> DeferralProgram | None: ...

    @property
    def election_rules(self) -> ElectionRules | None: ...

    @property
    def beneficiary_rules(self) -> BeneficiaryRules | None: ...

    @property
    def account_distributions(self) -> AccountDistributionRules | None: ...

    @property
    def market_needs(self) -> MarketNeedsFn | None: ...


# ------------------------------------------------------------------------------ the usual implementation


def revrul_reading(groups: Mapping[str, Any]) -> str | None:
    """The plan's confirmed reading of Rev. Rul. 2001-62 (a benefit setting of the plans that value
    2003–2007 distributions on the §417(e)(3) table), or None: not confirmed, or no such setting."""
    for group in groups.values():
        value = getattr(group, "revrul_2001_62_reading", None)
        if value is not None:
            return str(value)
    return None


def resolve_settings(classes: Mapping[str, type], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Default instances for each settings group, replaced by any given instance."""
    out = {name: _default_settings(cls) for name, cls in classes.items()}
    for name, value in (given or {}).items():
        if name not in out:
            raise KeyError(f"unknown settings group {name!r}")
        if not isinstance(value, classes[name]):
            raise TypeError(f"settings group {name!r} must be a {classes[name].__name__}")
        out[name] = value
    return out


def _default_settings(cls: type) -> Any:
    """``cls()``: one shared instance of a frozen settings class (immutable, so sharing it is safe; a
    census resolves the settings for every participant), a new one of any other class."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen:
        return cls()
    instance = _DEFAULTS.get(cls)
    if instance is None:
        instance = _DEFAULTS[cls] = cls()
    return instance


_DEFAULTS: dict[type, Any] = {}


@functools.cache
def _all_defaults(service_vesting: type, benefits: type) -> Mapping[str, Any] | None:
    """The resolved settings when none is given, worked out once for a pair of frozen settings
    classes (a census resolves them for every participant); None when either class is not frozen
    (each calculation then gets new instances)."""
    classes = {"service_vesting": service_vesting, "benefits": benefits}
    for cls in classes.values():
        params = getattr(cls, "__dataclass_params__", None)
        if params is None or not params.frozen:
            return None
    return MappingProxyType(resolve_settings(classes, None))


@functools.cache
def _table_modules() -> tuple[ModuleType, ModuleType, ModuleType]:
    """The modules ``calculate`` reads loaded tables and missing inputs through, imported on first
    use (not when the registry loads) and once (an import statement in ``calculate`` costs a census
    microseconds a participant)."""
    from .. import life_expectancy, missing, mortality

    return life_expectancy, missing, mortality


@dataclass(frozen=True)
class PackagePlan:
    """A ``Plan`` built from a package's parts: its ``rules.core`` (service, vesting, retirement
    dates), its settings classes, and its ``contract.plan_outputs`` (the plan's benefit figures).

    ``core_uses_benefit_settings``: the core also reads the ``benefits`` settings group (the
    401(k)'s vesting depends on which sources are scheduled).
    """

    key: str
    title: str
    core: CoreFn
    service_vesting: type
    benefit_settings: type
    outputs: OutputsFn
    core_uses_benefit_settings: bool = False
    claim_rules: PlanClaimRules | None = None
    loans: LoanProgram | None = None
    hardship: HardshipRules | None = None
    grid: GridPricing | None = None
    source_accounts: SourceAccounts | None = None
    share_accounts: ShareAccounts | None = None
    ledger: LedgerStatements | None = None
    contributions: ContributionRules | None = None
    cash_out: PlanFeature | None = None
    diversification: DiversificationProgram | None = None
    deferrals: DeferralProgram | None = None
    election_rules: ElectionRules | None = None
    beneficiary_rules: BeneficiaryRules | None = None
    account_distributions: AccountDistributionRules | None = None
    market_needs: MarketNeedsFn | None = None
    # claim type -> the order its payment takes the sources (benefits.engine.payment_order); none: pro rata
    payment_orders: Mapping[str, Any] | None = None

    def settings_classes(self) -> dict[str, type]:
        return {"service_vesting": self.service_vesting, "benefits": self.benefit_settings}

    def default_settings(self) -> dict[str, Any]:
        return resolve_settings(self.settings_classes(), None)

    def _outputs(self) -> OutputsFn:
        """The grid's one-pass outputs when nothing is traced, else the traced scalar path."""
        if self.grid is not None and self.grid.outputs is not None and not recording():
            return self.grid.outputs
        return self.outputs

    def _core(self, participant: Participant, as_of: date, settings: Mapping[str, Any]) -> CoreResult:
        return core_with_settings(
            self.core, participant, as_of, settings, uses_benefit_settings=self.core_uses_benefit_settings
        )

    def core_result(
        self, participant: Participant, as_of: date, settings: Mapping[str, Any] | None = None
    ) -> CoreResult:
        """Service, vesting and retirement dates alone (the web app's vesting and statement pages)."""
        return self._core(participant, as_of, resolve_settings(self.settings_classes(), settings))

    def calculate(
        self,
        participant: Participant,
        as_of: date,
        assumptions: Mapping[str, Any],
        settings: Mapping[str, Any] | None = None,
        *,
        detail: bool = False,
    ) -> JSON:
        """The contract result for one participant (docs/engine-cli.md).

        ``settings`` maps a group name of ``settings_classes()`` to an instance; missing groups take
        their defaults. ``detail`` adds the service breakdown and the trace.
        """
        defaults = None if settings else _all_defaults(self.service_vesting, self.benefit_settings)
        resolved = (
            dict(defaults) if defaults is not None else resolve_settings(self.settings_classes(), settings)
        )
        core = self._core(participant, as_of, resolved)
        result: JSON = {"id": participant.id}
        result.update(core.contract())
        life, missing, mortality = _table_modules()
        try:  # §417(e)(3) tables and Single Life Tables loaded as inputs replace the shipped ones
            tables = mortality.parse_loaded_417e_tables((assumptions or {}).get(mortality.LOADED_417E_KEY))
            life_tables = life.parse_loaded_single_life_tables((assumptions or {}).get(life.LOADED_SLT_KEY))
        except (mortality.TableInputError, life.SingleLifeInputError) as exc:
            raise ParticipantError(exc.field, str(exc), absolute=True) from None
        try:
            blocked = (core.extra or {}).get(missing.BENEFITS_BLOCKED)
            if blocked is not None:  # the core itself names an input the benefit figures wait for
                raise blocked
            reading = revrul_reading(resolved)
            if mortality.tables_in_force(reading, tables) and life.no_loaded_single_life_tables(life_tables):
                # the blocks below would set what is already set (a census at the defaults)
                result.update(self._outputs()(participant, as_of, assumptions, core))
            else:
                with (
                    mortality.revrul_2001_62_reading(reading),
                    mortality.loaded_417e_tables(tables),
                    life.loaded_single_life_tables(life_tables),
                ):
                    result.update(self._outputs()(participant, as_of, assumptions, core))
        except Exception as exc:
            # A missing input (a market rate; a limit or table the engine lacks for the date) blocks
            # the benefit figures, not the participant: vesting and dates stay (``missing``).
            entry = missing.whole_plan_blocked(self.key, exc)
            if entry is None:
                raise
            result["missing"] = [entry]
        if detail:
            result["service_history"] = history_dict(core)
            result["trace"] = core.trace.as_list()
            if core.notes:
                result["notes"] = list(core.notes)
        return result
