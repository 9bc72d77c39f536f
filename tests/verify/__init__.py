"""Tests of accsat.verify (translation validation), one file per module or concern."""
