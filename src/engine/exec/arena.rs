//! An interning arena: nodes of one type stored once each, addressed by small ids.

use std::collections::HashMap;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::ops::Index;

/// The number of a node in an [`Arena`] of `T`s. Equal nodes added to one arena get
/// the same id, so two ids are equal exactly when their nodes are.
pub struct Id<T>(u32, PhantomData<fn() -> T>);

impl<T> Clone for Id<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Id<T> {}

impl<T> PartialEq for Id<T> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl<T> Eq for Id<T> {}

impl<T> Hash for Id<T> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.0.hash(h);
    }
}

impl<T> fmt::Debug for Id<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// Nodes of type `T`, each stored once: adding a node equal to one already there
/// gives that node's id.
#[derive(Clone, Debug)]
pub struct Arena<T> {
    /// The nodes, by id.
    nodes: Vec<T>,
    /// The id of every node.
    ids: HashMap<T, u32>,
}

impl<T> Default for Arena<T> {
    fn default() -> Self {
        Arena { nodes: Vec::new(), ids: HashMap::new() }
    }
}

impl<T: Clone + Eq + Hash> Arena<T> {
    /// The id of a node: the id it already has, or a new one.
    pub fn add(&mut self, node: T) -> Id<T> {
        if let Some(&i) = self.ids.get(&node) {
            return Id(i, PhantomData);
        }
        let i = u32::try_from(self.nodes.len()).expect("fewer than 2^32 nodes");
        self.nodes.push(node.clone());
        self.ids.insert(node, i);
        Id(i, PhantomData)
    }
}

impl<T> Arena<T> {
    /// The node of an id.
    pub fn get(&self, id: Id<T>) -> &T {
        &self.nodes[id.0 as usize]
    }

    /// The nodes with their ids, in the order they were added.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (Id<T>, &T)> {
        self.nodes.iter().enumerate().map(|(i, n)| (Id(i as u32, PhantomData), n))
    }
}

impl<T> Index<Id<T>> for Arena<T> {
    type Output = T;

    fn index(&self, id: Id<T>) -> &T {
        self.get(id)
    }
}

#[cfg(test)]
mod tests {
    use super::Arena;

    #[test]
    fn equal_nodes_share_an_id() {
        let mut a = Arena::default();
        let x = a.add((1, 2));
        let y = a.add((3, 4));
        assert_ne!(x, y);
        assert_eq!(a.add((1, 2)), x);
        assert_eq!(a[y], (3, 4));
    }
}
