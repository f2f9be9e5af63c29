"""Easy Money (Milton Bradley): see rules.py."""
