"""Plan identification printed on every document: the plan's name and three-digit plan number, the
sponsor, and the plan administrator with address and telephone (issue 25 item 6). An administrator
maintains them on the plan's staff page; every PDF prints them through ``pdf/_plan_identity.html``."""
