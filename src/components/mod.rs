//! Components shared by pages: charts, tables, the environment block.

pub mod charts;
pub mod env_block;
pub mod results_table;
