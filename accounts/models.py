"""Users log in by email (no usernames) and hold exactly one role."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser, BaseUserManager
from django.db import models


class UserManager(BaseUserManager):
    use_in_migrations = True

    def _create_user(self, email: str, password: str | None, **extra_fields):
        if not email:
            raise ValueError("An email address is required.")
        user = self.model(email=self.normalize_email(email).lower(), **extra_fields)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_user(self, email: str, password: str | None = None, **extra_fields):
        extra_fields.setdefault("is_staff", False)
        extra_fields.setdefault("is_superuser", False)
        return self._create_user(email, password, **extra_fields)

    def create_superuser(self, email: str, password: str | None = None, **extra_fields):
        extra_fields.setdefault("is_staff", True)
        extra_fields.setdefault("is_superuser", True)
        extra_fields.setdefault("role", User.Role.ADMINISTRATOR)
        return self._create_user(email, password, **extra_fields)


class User(AbstractUser):
    class Role(models.TextChoices):
        PARTICIPANT = "participant", "Participant"
        COMMITTEE = "committee", "Plan committee member"
        ADMINISTRATOR = "administrator", "Administrator"

    username = None
    email = models.EmailField("email address", unique=True)
    role = models.CharField(max_length=20, choices=Role.choices, default=Role.PARTICIPANT)

    USERNAME_FIELD = "email"
    REQUIRED_FIELDS: list[str] = []

    objects = UserManager()

    class Meta:
        ordering = ["email"]

    def __str__(self) -> str:
        return self.email

    @property
    def is_participant_role(self) -> bool:
        return self.role == self.Role.PARTICIPANT

    @property
    def is_committee(self) -> bool:
        return self.role == self.Role.COMMITTEE

    @property
    def is_administrator(self) -> bool:
        return self.role == self.Role.ADMINISTRATOR

    @property
    def is_plan_staff(self) -> bool:
        """Committee members and administrators: their pages require MFA."""
        return self.role in (self.Role.COMMITTEE, self.Role.ADMINISTRATOR)


class SubmissionToken(models.Model):
    """One row per form submission that created something: the form's one-time token is unique, so a
    repeated or concurrent submit of the same form finds the first one's result and creates nothing."""

    token = models.UUIDField(unique=True)
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    purpose = models.CharField(max_length=80)
    result_url = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.purpose} {self.token}"


class RoleRequest(models.Model):
    """Four eyes on power (issue 26): an administrator asks for a staff role, for an existing login or
    a new one (``user`` empty until approved); a different person approves it (another administrator,
    or for the committee role a sitting committee member). Until then the login keeps its old role."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for approval"
        APPROVED = "approved", "Approved"
        REFUSED = "refused", "Refused"
        WITHDRAWN = "withdrawn", "Withdrawn"

    user = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.PROTECT, related_name="role_requests"
    )
    email = models.EmailField(max_length=254)  # the login's address; for a new login, the one to create
    role = models.CharField(max_length=20, choices=User.Role.choices)
    requested_by = models.ForeignKey(User, on_delete=models.PROTECT, related_name="+")
    requested_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    decided_by = models.ForeignKey(User, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-requested_at"]
        constraints = [
            # One open request per address: a second one would be decided twice.
            models.UniqueConstraint(
                fields=["email"], condition=models.Q(status="pending"), name="role_request_one_pending"
            ),
            models.CheckConstraint(
                condition=models.Q(role__in=["committee", "administrator"]), name="role_request_staff_role"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.email} → {self.role} ({self.status})"
