//! Shared values compared by identity. `Rc<T>`'s own `==` compares contents, and a report
//! holds every thread block of a run: comparing it on each render of a playback frame costs
//! more than drawing the frame.

use std::rc::Rc;

/// An `Rc` compared by pointer, as a hook dependency: "the same object as last render".
pub struct Same<T>(pub Rc<T>);

impl<T> Clone for Same<T> {
    fn clone(&self) -> Self {
        Same(self.0.clone())
    }
}

impl<T> PartialEq for Same<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// Equal contents, checked by pointer first: for props, where the same object is the common
/// case and a copy with equal contents must still count as unchanged.
pub fn same_or_equal<T: PartialEq>(a: &Rc<T>, b: &Rc<T>) -> bool {
    Rc::ptr_eq(a, b) || a == b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_and_contents() {
        let a = Rc::new(vec![1.5]);
        let copy = Rc::new(vec![1.5]);
        assert!(Same(a.clone()) == Same(a.clone()));
        assert!(Same(a.clone()) != Same(copy.clone()), "equal contents, another object");
        assert!(same_or_equal(&a, &copy));
        assert!(!same_or_equal(&a, &Rc::new(vec![2.0])));
    }
}
