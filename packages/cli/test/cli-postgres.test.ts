import test from 'ava';
import { cliSuite } from './cli-suite';

cliSuite(test, 'postgres');
