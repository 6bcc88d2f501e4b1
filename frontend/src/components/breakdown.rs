//! Stacked bars comparing runs part by part (see [`crate::plot::breakdown`]): one row per run,
//! its label, its bar and a figure — the relative total, or nothing for shares. Each segment
//! names its part and share on hover; the legend names the colours.

use yew::prelude::*;

use crate::plot::breakdown::{bars, Scale};
use crate::plot::palette::qualitative;

/// Props of [`Breakdown`].
#[derive(Properties, PartialEq)]
pub struct BreakdownProps {
    /// Heading id, for the figure's label.
    pub id: AttrValue,
    /// What the bars show.
    pub title: AttrValue,
    /// A sentence under the title: what is counted and how it is scaled.
    pub note: AttrValue,
    /// The parts' names, in segment order.
    pub parts: &'static [&'static str],
    /// Each run's label and its values by part.
    pub rows: Vec<(AttrValue, Vec<f64>)>,
    /// How bars are scaled.
    pub scale: Scale,
}

/// Part `i`'s colour: the qualitative palette, which the charts use for series too.
fn colour(i: usize) -> String {
    qualitative(i).css()
}

/// One stacked bar per run.
#[function_component(Breakdown)]
pub fn breakdown(props: &BreakdownProps) -> Html {
    let values: Vec<&[f64]> = props.rows.iter().map(|(_, v)| v.as_slice()).collect();
    let bars = bars(&values, props.scale);
    html! {
        <figure class="viz-breakdown" aria-labelledby={props.id.clone()}>
            <h4 id={props.id.clone()}>{ props.title.clone() }</h4>
            <p class="note">{ props.note.clone() }</p>
            <table class="breakdown-table">
                <tbody>
                    { for props.rows.iter().zip(&bars).enumerate().map(|(i, ((label, _), bar))| {
                        let figure = match (props.scale, bar.relative) {
                            (Scale::RelativeToFirst, Some(_)) if i == 0 => "1.00 (base)".to_owned(),
                            (Scale::RelativeToFirst, Some(r)) => format!("{r:.2}×"),
                            (Scale::RelativeToFirst, None) => "–".to_owned(),
                            (Scale::Shares, _) => String::new(),
                        };
                        html! {
                            <tr>
                                <th scope="row">{ label.clone() }</th>
                                <td class="bar-cell">
                                    <div class="breakdown-track">
                                        { for bar.segments.iter().map(|s| {
                                            let style = format!("left: {:.3}%; width: {:.3}%; background: {};", s.start, s.width, colour(s.part));
                                            let title = format!("{}: {:.1} %", props.parts[s.part], 100.0 * s.share);
                                            html! { <span {style} {title} /> }
                                        }) }
                                    </div>
                                </td>
                                <td class="num">{ figure }</td>
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
            <ul class="viz-legend" aria-label="Parts">
                { for props.parts.iter().enumerate().map(|(i, name)| html! {
                    <li><span class="swatch" style={format!("background: {};", colour(i))} />{ *name }</li>
                }) }
            </ul>
        </figure>
    }
}
