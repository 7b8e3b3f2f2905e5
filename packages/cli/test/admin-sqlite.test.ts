import test from 'ava';
import { adminSuite } from './admin-suite';

adminSuite(test, 'sqlite');
