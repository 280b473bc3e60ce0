"""Staff dashboard (docs/design.md §7): thin views over the services, selectors and models of
facts, recall, profiles and webhooks."""
