//! The builders: programs that make Kroon's knowledge files by running the engine
//! (the opening book, ...). They sit above the engine; the engine only reads
//! what they make.

pub mod book_builder;
