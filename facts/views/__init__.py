"""Staff dashboard (docs/design.md §7): thin views over facts.services, facts.privacy and the models' querysets."""
