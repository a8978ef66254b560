//! Installing the guard hook into each agent's settings (see below).
