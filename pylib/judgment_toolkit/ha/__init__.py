"""The ha core (goal documents, run record, status, capabilities) and decision-history/v1."""

HA_VERSION = "0.1.5"
