import test from 'ava';
import { outboxSuite } from './outbox-suite';

outboxSuite(test, 'postgres');
