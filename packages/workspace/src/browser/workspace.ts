// Entry of the workspace page: the shell and the first screen (the forms list); others load on demand.
import './shell/workspace-app';
import './forms-list/forms-list';
