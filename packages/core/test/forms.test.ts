/*
 * Forms, logic, recall, exports, mails, ids and kept values of the core, with the test helpers' `waitFor`: one test file, one
 * process, for what were nine (issue 35): each file paid its process and the core's loading before its first
 * test (docs/testing.md, "Merged test files"). The parts in forms/ declare their tests with ava's `test` as
 * they are imported; none needs a database, a server or process-wide state.
 */
import './forms/csv-page';
import './forms/export-table';
import './forms/form-merge';
import './forms/idle-caches';
import './forms/ids';
import './forms/logic';
import './forms/logic-actions';
import './forms/notification-mails';
import './forms/recall';
import './forms/respondent-policies';
import './forms/wait-for';
