import test from 'ava';
import { AddressGuard, embeddedIPv4 } from '../src';

const guard = new AddressGuard();

const PUBLIC = [
  '93.184.216.34',
  '8.8.8.8',
  '1.1.1.1',
  '100.63.255.255',
  '100.128.0.1',
  '172.32.0.1',
  '11.0.0.1',
  '223.255.255.254',
  '::ffff:93.184.216.34',
  '::ffff:5db8:d822',
  '0:0:0:0:0:ffff:808:808',
  '64:ff9b::8.8.8.8',
  '64:ff9b::5db8:d822',
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '2a00:1450:4001:80b::200e',
];

const PRIVATE = [
  '0.0.0.0',
  '0.1.2.3',
  '10.0.0.1',
  '10.255.255.255',
  '100.64.0.1',
  '100.127.255.255',
  '127.0.0.1',
  '127.1.2.3',
  '169.254.169.254',
  '172.16.0.1',
  '172.31.255.255',
  '192.168.1.1',
  '192.0.0.8',
  '198.18.0.1',
  '224.0.0.1',
  '239.255.255.250',
  '240.0.0.1',
  '255.255.255.255',
  '::',
  '::1',
  '0:0:0:0:0:0:0:1',
  '::7f00:1',
  '::127.0.0.1',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::ffff:10.0.0.1',
  '::ffff:169.254.169.254',
  '::ffff:192.168.0.1',
  '0:0:0:0:0:ffff:a00:1',
  '64:ff9b::10.0.0.1',
  '64:ff9b::7f00:1',
  '64:ff9b::a9fe:a9fe',
  '64:ff9b:1::1',
  '64:ff9b:1:ffff::8.8.8.8',
  '2002::1',
  '2002:7f00:1::1',
  '2002:5db8:d822::1',
  '2001::1',
  '2001:db8::1',
  'fc00::1',
  'fd12:3456::1',
  'fe80::1',
  'fe80::1%eth0',
  'febf::1',
  'fec0::1',
  'feff::1',
  'ff02::1',
  'not-an-ip',
  '',
];

test('public IPv4 and IPv6 addresses (also mapped and NAT64 forms of public IPv4) are allowed', (t) => {
  for (const a of PUBLIC) t.is(guard.refusal(a), null, a);
});

test('loopback, private, link-local, CGNAT, multicast, reserved and tunnelling addresses are refused', (t) => {
  for (const a of PRIVATE) t.truthy(guard.refusal(a), a);
});

test('IPv6 forms that carry an IPv4 address are read as that address', (t) => {
  t.is(embeddedIPv4('::ffff:93.184.216.34'), '93.184.216.34');
  t.is(embeddedIPv4('::ffff:5db8:d822'), '93.184.216.34');
  t.is(embeddedIPv4('64:ff9b::a00:1'), '10.0.0.1');
  t.is(embeddedIPv4('2606:4700::1111'), null);
  t.regex(guard.refusal('::ffff:10.0.0.1')!, /maps to 10\.0\.0\.1/);
});
