/*
 * Forms through the API: create, read, update, slugs, settings, languages (docs/languages.md), publishing,
 * versions, style and the public read. One test file, one process, for what were twelve: each file paid
 * about 1.5 CPU-seconds before its first request (docs/testing.md, "Merged test files"). The parts in forms/
 * that need no app configuration of their own export `register` and share one app per database; the others
 * declare their tests with ava's `test` as they are imported, with the apps they need.
 */
import test from './helpers/bounded-test';
import { sharedApps } from './helpers/shared-apps';
import * as crud from './forms/crud';
import * as etag from './forms/etag';
import * as json from './forms/json';
import * as languages from './forms/languages';
import * as publishing from './forms/publishing';
import * as versionRestore from './forms/version-restore';
import * as styleAndTitles from './forms/style-and-titles';
import * as themeAssets from './forms/theme-assets';
import './forms/slug';
import './forms/settings';
import './forms/auto-translate';
import './forms/public-view';

const apps = sharedApps(test);
for (const part of [crud, etag, json, languages, publishing, versionRestore, styleAndTitles, themeAssets]) part.register(apps);
