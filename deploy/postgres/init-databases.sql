-- One database per service: a service never reads another's tables.
CREATE DATABASE arbiter_registration;
CREATE DATABASE arbiter_pairing;
CREATE DATABASE arbiter_clocks;
CREATE DATABASE arbiter_standings;
