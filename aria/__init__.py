"""Aria: a conversational data assistant for restaurant managers, built on Reflect-SQL."""

__version__ = "0.1.0"
