"""Demo participants: histories chosen to exercise each plan's rules (demo data only, not real people).

SSNs use area number 900, which the SSA never issues, so no demo SSN is anyone's real number.
Each person is a ``Person`` with one or more ``Membership``s; hours and pay are generated year by year
from a few facts (hire, end, salary, raises) plus explicit overrides where a rule needs them (a short
year that makes a break, a leave, a rehire).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal


@dataclass(frozen=True)
class Membership:
    plan: str  # engine plan key
    entry_date: date | None = None
    hours_override: dict[int, int] = field(default_factory=dict)
    plan_data: dict = field(default_factory=dict)
    balances: dict[str, str] = field(default_factory=dict)  # account plans: source -> balance
    # ESOPs: {"allocations": {year: shares}, "forfeiture": {"date", "shares", "cash"}} (demo/activity.py)
    history: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Person:
    number: str
    first: str
    last: str
    birth: date
    ssn: str
    periods: tuple[tuple[date, date | None], ...]  # employment spans (rehires are extra spans)
    salary: Decimal  # pay in the first year of the first span
    raise_pct: Decimal
    memberships: tuple[Membership, ...]
    married: bool = False
    spouse: str = ""
    spouse_birth: date | None = None
    email: str = ""
    death: date | None = None
    disability: date | None = None
    note: str = ""  # what this history exercises
    login: str = ""  # demo login linked to this record


D = Decimal
CARVER_DB = "carver-db"
QUAKER = "quaker-cash-balance"
K401 = "carver-401k"
FAIRPORT = "fairport-esop"
CARVER_ESOP = "carver-esop"

PEOPLE: tuple[Person, ...] = (
    Person(
        "CFS-10001",
        "Pat",
        "Morgan",
        date(1962, 3, 14),
        "900-10-1001",
        ((date(1986, 6, 2), None),),
        D("31500"),
        D("3.0"),
        (
            Membership(CARVER_DB, date(1987, 7, 1), plan_data={"social_security_amount": "13452.00"}),
            Membership(
                K401,
                date(1987, 7, 1),
                plan_data={
                    "deferrals": {"2023": "9200.00", "2024": "9600.00", "2025": "9900.00"},
                    "loans": {"outstanding_balance": "0.00", "highest_balance_last_12_months": "0.00"},
                },
                balances={
                    "before_tax": "148250.00",
                    "matching_pre2002": "21400.00",
                    "matching_2002": "61875.00",
                    "rollover": "12000.00",
                },
            ),
            Membership(
                CARVER_ESOP,
                date(1995, 1, 1),
                plan_data={
                    "shares": "1840.0000",
                    "cash": "412.55",
                    "share_value": "7.85",
                    "vested_account_value": "14856.55",
                    "normal_retirement_age": 65,
                },
                history={"allocations": {"2024": "48.0000", "2025": "52.0000"}},
            ),
        ),
        married=True,
        spouse="Jordan Morgan",
        spouse_birth=date(1964, 9, 2),
        email="pat@demo.test",
        note="several plans; married; near retirement (NRD 2027)",
        login="pat@demo.test",
    ),
    Person(
        "CFS-10002",
        "Ruth",
        "Alvarez",
        date(1966, 11, 20),
        "900-10-1002",
        ((date(1984, 2, 13), date(1999, 8, 31)),),
        D("22000"),
        D("3.5"),
        (Membership(CARVER_DB, date(1985, 7, 1), plan_data={"social_security_amount": "9610.00"}),),
        note="terminated vested before the freeze; deferred benefit",
    ),
    Person(
        "CFS-10003",
        "Devon",
        "Price",
        date(1972, 5, 5),
        "900-10-1003",
        ((date(1995, 9, 11), date(1998, 4, 30)),),
        D("24500"),
        D("3.0"),
        (Membership(CARVER_DB, date(1996, 7, 1), plan_data={"social_security_amount": "0.00"}),),
        note="short service, not vested",
    ),
    Person(
        "CFS-10004",
        "Lena",
        "Okafor",
        date(1963, 7, 30),
        "900-10-1004",
        ((date(1983, 4, 4), date(1988, 6, 30)), (date(1990, 3, 1), date(2012, 6, 30))),
        D("19800"),
        D("3.5"),
        (Membership(CARVER_DB, date(1984, 7, 1), plan_data={"social_security_amount": "10980.00"}),),
        married=True,
        spouse="Sam Okafor",
        spouse_birth=date(1961, 1, 12),
        note="break in service and rehire; parity; terminated 2012; early start possible",
    ),
    Person(
        "CFS-10005",
        "Harold",
        "Jenkins",
        date(1934, 2, 1),
        "900-10-1005",
        ((date(1970, 1, 5), date(2001, 6, 30)),),
        D("9800"),
        D("5.0"),
        (
            Membership(
                CARVER_DB,
                date(1971, 1, 1),
                plan_data={"social_security_amount": "14620.00", "benefit_at_1997_12_31": "18250.00"},
            ),
        ),
        married=True,
        spouse="Edna Jenkins",
        spouse_birth=date(1937, 8, 19),
        note="late retirement: NRD 1999, worked past the freeze",
    ),
    Person(
        "CFS-10006",
        "Marcus",
        "Bell",
        date(1960, 10, 10),
        "900-10-1006",
        ((date(1988, 1, 4), date(2012, 12, 14)),),
        D("27000"),
        D("3.0"),
        (Membership(CARVER_DB, date(1989, 1, 1), plan_data={"social_security_amount": "11250.00"}),),
        married=True,
        spouse="Alicia Bell",
        spouse_birth=date(1962, 4, 3),
        death=date(2012, 12, 14),
        note="died in service after the freeze: Preretirement Spouse Benefit",
    ),
    Person(
        "QCB-20001",
        "Ana",
        "Silva",
        date(1975, 4, 12),
        "900-20-2001",
        ((date(2002, 3, 4), date(2014, 9, 30)),),
        D("38000"),
        D("3.0"),
        (Membership(QUAKER, date(2003, 1, 1)),),
        note="post-1999 hire, vested termination, deferred annuity or lump sum",
    ),
    Person(
        "QCB-20002",
        "Carla",
        "Whitman",
        date(1961, 8, 8),
        "900-20-2002",
        ((date(1985, 5, 20), None),),
        D("21000"),
        D("3.25"),
        (Membership(QUAKER, date(1986, 1, 1), plan_data={"opening_balance": "48630.00"}),),
        married=True,
        spouse="Ray Whitman",
        spouse_birth=date(1959, 12, 1),
        note="pre-2000 participant with an opening balance; early retirement eligible",
    ),
    Person(
        "QCB-20003",
        "Dan",
        "Kowalski",
        date(1980, 1, 25),
        "900-20-2003",
        ((date(2004, 6, 1), date(2006, 10, 15)), (date(2009, 2, 2), None)),
        D("29500"),
        D("2.5"),
        (Membership(QUAKER, date(2005, 1, 1)),),
        note="non-vested termination, rehire within five breaks, restoration",
    ),
    Person(
        "QCB-20004",
        "Eve",
        "Tran",
        date(1985, 6, 18),
        "900-20-2004",
        ((date(2008, 9, 2), date(2016, 5, 31)),),
        D("14500"),
        D("2.0"),
        (
            Membership(
                QUAKER,
                date(2010, 1, 1),
                hours_override={
                    2008: 520,
                    2009: 1040,
                    2010: 1100,
                    2011: 1050,
                    2012: 1010,
                    2013: 1200,
                    2014: 1100,
                    2015: 1020,
                    2016: 400,
                },
            ),
        ),
        note="part-timer, small vested balance, involuntary cash-out",
    ),
    Person(
        "QCB-20005",
        "Frank",
        "Moreau",
        date(1968, 3, 3),
        "900-20-2005",
        ((date(1998, 1, 5), None),),
        D("150000"),
        D("4.0"),
        (Membership(QUAKER, date(1999, 1, 1), plan_data={"opening_balance": "9125.00"}),),
        married=True,
        spouse="Claire Moreau",
        spouse_birth=date(1970, 7, 7),
        note="high earner above the 401(a)(17) limit",
    ),
    Person(
        "QCB-20006",
        "Gina",
        "Russo",
        date(1978, 12, 2),
        "900-20-2006",
        ((date(2001, 4, 16), None),),
        D("33000"),
        D("3.0"),
        (Membership(QUAKER, date(2002, 1, 1)),),
        married=True,
        spouse="Tony Russo",
        spouse_birth=date(1977, 3, 21),
        note="married, active mid-career",
    ),
    Person(
        "CFS-30001",
        "Leo",
        "Fischer",
        date(1979, 9, 9),
        "900-30-3001",
        ((date(2006, 8, 14), None),),
        D("41000"),
        D("3.0"),
        (
            Membership(
                K401,
                date(2007, 1, 1),
                plan_data={
                    "deferrals": {"2024": "4200.00", "2025": "4400.00"},
                    "loans": {"outstanding_balance": "8420.16", "highest_balance_last_12_months": "10000.00"},
                },
                balances={"before_tax": "52340.00", "matching_2002": "24810.00", "rollover": "0.00"},
            ),
        ),
        note="a 401(k) loan outstanding",
    ),
    Person(
        "CFS-30002",
        "Maya",
        "Greene",
        date(1965, 1, 15),
        "900-30-3002",
        ((date(1996, 3, 18), None),),
        D("28000"),
        D("3.0"),
        (
            Membership(
                K401,
                date(1996, 7, 1),
                plan_data={
                    "deferrals": {"2024": "7000.00", "2025": "7200.00"},
                    "loans": {"outstanding_balance": "0.00", "highest_balance_last_12_months": "0.00"},
                },
                balances={
                    "before_tax": "96410.00",
                    "matching_pre2002": "8450.00",
                    "matching_2002": "40210.00",
                },
            ),
        ),
        note="over 59½: in-service withdrawal; hardship eligible",
    ),
    Person(
        "CFS-30003",
        "Owen",
        "Reyes",
        date(1997, 2, 27),
        "900-30-3003",
        ((date(2024, 5, 6), None),),
        D("39000"),
        D("3.0"),
        (
            Membership(
                K401,
                date(2025, 1, 1),
                plan_data={
                    "deferrals": {"2025": "1950.00"},
                    "loans": {"outstanding_balance": "0.00", "highest_balance_last_12_months": "0.00"},
                },
                balances={"before_tax": "3790.00", "matching_2002": "3245.00"},
            ),
        ),
        note="new employee, match not yet vested",
    ),
    Person(
        "CFS-30004",
        "Priya",
        "Nair",
        date(1984, 10, 3),
        "900-30-3004",
        ((date(2010, 1, 11), date(2012, 3, 30)), (date(2014, 2, 3), None)),
        D("36000"),
        D("3.0"),
        (
            Membership(
                K401,
                date(2010, 7, 1),
                plan_data={
                    "deferrals": {"2024": "5400.00", "2025": "5600.00"},
                    "loans": {"outstanding_balance": "0.00", "highest_balance_last_12_months": "0.00"},
                },
                balances={"before_tax": "61200.00", "matching_2002": "27400.00"},
            ),
        ),
        note="rehire after a period of severance; forfeiture restored",
    ),
    Person(
        "CFS-30005",
        "Victor",
        "Hale",
        date(1958, 6, 6),
        "900-30-3005",
        ((date(1990, 10, 1), date(2024, 6, 28)),),
        D("26000"),
        D("3.0"),
        (
            Membership(
                K401,
                date(1991, 1, 1),
                plan_data={
                    "deferrals": {"2023": "6100.00", "2024": "3200.00"},
                    "loans": {"outstanding_balance": "0.00", "highest_balance_last_12_months": "0.00"},
                },
                balances={
                    "before_tax": "131300.00",
                    "matching_pre2002": "15250.00",
                    "matching_2002": "52800.00",
                    "discretionary": "3100.00",
                },
            ),
        ),
        married=True,
        spouse="Irene Hale",
        spouse_birth=date(1960, 2, 14),
        note="married, terminated: QJSA is the normal form",
    ),
    Person(
        "FSB-40001",
        "Sam",
        "Ortiz",
        date(1966, 4, 22),
        "900-40-4001",
        ((date(1996, 1, 8), None),),
        D("30000"),
        D("3.0"),
        (
            Membership(
                FAIRPORT,
                date(1997, 1, 1),
                plan_data={
                    "shares": "3150.0000",
                    "cash": "845.20",
                    "share_value": "11.40",
                    "years_of_participation": 29,
                    "shares_allocated_since_inception": "3150.0000",
                    "shares_diversified": "0.0000",
                },
                history={"allocations": {"2024": "95.0000", "2025": "100.0000"}},
            ),
        ),
        married=True,
        spouse="Rita Ortiz",
        spouse_birth=date(1968, 5, 30),
        email="sam@demo.test",
        note="ESOP participant eligible to diversify (age 55, ten years)",
        login="sam@demo.test",
    ),
    Person(
        "FSB-40002",
        "Paul",
        "Nguyen",
        date(1982, 8, 14),
        "900-40-4002",
        ((date(2019, 3, 4), date(2023, 7, 14)),),
        D("35000"),
        D("3.0"),
        (
            Membership(
                FAIRPORT,
                date(2020, 1, 1),
                plan_data={
                    "shares": "410.0000",
                    "cash": "96.10",
                    "share_value": "11.40",
                    "years_of_participation": 4,
                    "shares_allocated_since_inception": "410.0000",
                    "shares_diversified": "0.0000",
                },
            ),
        ),
        note="80% vested at termination (five Vesting Years); forfeiture timing",
    ),
    Person(
        "FSB-40003",
        "Quinn",
        "Adams",
        date(1995, 11, 1),
        "900-40-4003",
        ((date(2023, 6, 5), date(2024, 9, 20)),),
        D("31000"),
        D("3.0"),
        (
            Membership(
                FAIRPORT,
                date(2024, 1, 1),
                hours_override={2023: 640},  # a part-time first year: 0% vested at termination
                plan_data={
                    "shares": "0.0000",
                    "cash": "0.00",
                    "share_value": "11.40",
                    "years_of_participation": 1,
                    "shares_allocated_since_inception": "62.0000",
                    "shares_diversified": "0.0000",
                },
                history={
                    "allocations": {"2024": "62.0000"},
                    "forfeiture": {
                        "date": "2024-12-31",
                        "shares": "62.0000",
                        "cash": "0.00",
                        "memo": "0% vested: deemed distributed at termination, forfeited (F §9.5, §9.6)",
                    },
                },
            ),
        ),
        note="0% vested at termination: the 62 shares allocated for 2024 are forfeited (F §9.5)",
    ),
    Person(
        "FSB-40004",
        "Tara",
        "Lindqvist",
        date(1963, 2, 9),
        "900-40-4004",
        ((date(1993, 5, 17), date(2025, 2, 28)),),
        D("27500"),
        D("3.0"),
        (
            Membership(
                FAIRPORT,
                date(1994, 1, 1),
                plan_data={
                    "shares": "4020.0000",
                    "cash": "1210.00",
                    "share_value": "11.40",
                    "years_of_participation": 31,
                    "shares_allocated_since_inception": "4020.0000",
                    "shares_diversified": "600.0000",
                },
            ),
        ),
        married=True,
        spouse="Nils Lindqvist",
        spouse_birth=date(1961, 10, 10),
        note="early retirement; balance over $5,000",
    ),
    Person(
        "FSB-40005",
        "Nora",
        "Patel",
        date(2000, 7, 4),
        "900-40-4005",
        ((date(2021, 9, 13), None),),
        D("33500"),
        D("3.0"),
        (
            Membership(
                FAIRPORT,
                date(2022, 1, 1),
                hours_override={2021: 640},
                plan_data={
                    "shares": "305.0000",
                    "cash": "44.80",
                    "share_value": "11.40",
                    "years_of_participation": 4,
                    "shares_allocated_since_inception": "305.0000",
                    "shares_diversified": "0.0000",
                },
                history={"allocations": {"2024": "58.0000", "2025": "62.0000"}},
            ),
        ),
        note="young active participant; first year under 1,000 hours",
    ),
    Person(
        "CBI-50001",
        "Iris",
        "Coleman",
        date(1990, 3, 19),
        "900-50-5001",
        ((date(2015, 4, 6), date(2018, 1, 31)),),
        D("30000"),
        D("3.0"),
        (
            Membership(
                CARVER_ESOP,
                date(2016, 1, 1),
                plan_data={
                    "shares": "70.0000",
                    "cash": "12.40",
                    "share_value": "7.85",
                    "vested_account_value": "561.90",
                    "normal_retirement_age": 65,
                },
            ),
        ),
        note="vested balance under $1,000: paid directly",
    ),
    Person(
        "CBI-50002",
        "Jamal",
        "Brooks",
        date(1987, 12, 8),
        "900-50-5002",
        ((date(2012, 2, 21), date(2019, 11, 15)),),
        D("34000"),
        D("3.0"),
        (
            Membership(
                CARVER_ESOP,
                date(2013, 1, 1),
                plan_data={
                    "shares": "380.0000",
                    "cash": "55.00",
                    "share_value": "7.85",
                    "vested_account_value": "3038.00",
                    "normal_retirement_age": 65,
                },
            ),
        ),
        note="vested balance between $1,000 and $5,000: automatic rollover unless elected",
    ),
    Person(
        "CBI-50003",
        "Kay",
        "Duarte",
        date(1959, 5, 27),
        "900-50-5003",
        ((date(1994, 8, 1), date(2021, 12, 31)),),
        D("29000"),
        D("3.0"),
        (
            Membership(
                CARVER_ESOP,
                date(1995, 1, 1),
                plan_data={
                    "shares": "2210.0000",
                    "cash": "380.00",
                    "share_value": "7.85",
                    "vested_account_value": "17728.50",
                    "normal_retirement_age": 65,
                },
            ),
        ),
        married=True,
        spouse="Luis Duarte",
        spouse_birth=date(1958, 1, 30),
        note="over $5,000: no distribution without consent before normal retirement age",
    ),
    Person(
        "CFS-10007",
        "Grace",
        "Holloway",
        date(1961, 9, 1),
        "900-10-1007",
        ((date(1982, 3, 15), None),),
        D("18500"),
        D("3.5"),
        (
            Membership(
                CARVER_DB,
                date(1983, 7, 1),
                hours_override={1992: 760},
                plan_data={"social_security_amount": "12890.00"},
            ),
            Membership(
                K401,
                date(1983, 7, 1),
                plan_data={
                    "deferrals": {"2024": "8800.00", "2025": "9100.00"},
                    "loans": {
                        "outstanding_balance": "14980.55",
                        "highest_balance_last_12_months": "16000.00",
                    },
                },
                balances={
                    "before_tax": "187400.00",
                    "matching_pre2002": "19800.00",
                    "matching_2002": "71300.00",
                },
            ),
        ),
        note="maternity leave year 1992 (hours credited to prevent a break); several plans; loan",
    ),
    Person(
        "CFS-10008",
        "Hank",
        "Osei",
        date(1970, 12, 12),
        "900-10-1008",
        ((date(1998, 5, 4), None),),
        D("26800"),
        D("3.0"),
        (Membership(CARVER_DB, date(1999, 7, 1), plan_data={"social_security_amount": "3120.00"}),),
        note="unlinked: try identity linking with CFS-10008 / 1970-12-12 / 1008",
    ),
)
