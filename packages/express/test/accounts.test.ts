/*
 * Teams, invitations, host users, the instance admin and account deletion (docs/accounts.md, docs/teams.md):
 * one test file, one process, for what were ten. Each file paid about 1.5 CPU-seconds before its first request
 * (docs/testing.md, "What it costs"); the parts in accounts/ declare their tests with ava's `test` as they are
 * imported, each with the apps it needs.
 */
import './accounts/teams';
import './accounts/invitation-mail';
import './accounts/invitation-mail-text';
import './accounts/invitation-option';
import './accounts/invitation-page';
import './accounts/form-move';
import './accounts/email-addresses';
import './accounts/host-users';
import './accounts/instance-admin';
import './accounts/account-deletion';
