//! Components shared by pages: charts, tables, the environment block.

pub mod blocks;
pub mod charts;
pub mod chunked;
pub mod comparison;
pub mod env_block;
pub mod field;
pub mod links;
pub mod own_way;
pub mod raw_report;
pub mod recipe;
pub mod run_all;
pub mod run_controls;
pub mod scheme_picker;
pub mod statistics;
pub mod summary;
pub mod ticker;
pub mod timeline;
