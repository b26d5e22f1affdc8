//! A company's contact persons (issue 9 § Master data): who is written to, with their
//! salutation.

use super::*;

/// A contact person at a company.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Person {
    /// Record id.
    pub id: i64,
    /// First name.
    pub firstname: String,
    /// Last name.
    pub lastname: String,
    /// E-mail (default offer recipient).
    pub email: Option<String>,
    /// The company.
    pub company: Option<IdName>,
    /// Gender (`F`, `M`, `U`).
    pub gender: Option<Gender>,
    /// Salutation or title (free text, e.g. `Dr.`).
    pub salutation: Option<String>,
    /// Job title.
    pub job_position: Option<String>,
    /// Phone.
    pub phone: Option<String>,
    /// The company's billing contact (at most one per company).
    #[serde(default)]
    pub billing_contact: bool,
    /// Creation time.
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    /// Last change.
    #[serde(with = "crate::timestamp")]
    pub updated_at: DateTime<Utc>,
}

impl Person {
    /// First and last name, separated by a space (blank parts left out).
    pub fn full_name(&self) -> String {
        [self.firstname.trim(), self.lastname.trim()]
            .into_iter()
            .filter(|p| !p.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// POST /contacts/people body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewPerson {
    /// Required: first name.
    pub firstname: Option<String>,
    /// Required: last name.
    pub lastname: Option<String>,
    /// E-mail.
    pub email: Option<String>,
    /// Company id.
    pub company_id: Option<i64>,
    /// Gender (`F`, `M`, `U`).
    pub gender: Option<Gender>,
    /// Salutation or title.
    pub salutation: Option<String>,
    /// Job title.
    pub job_position: Option<String>,
    /// Phone.
    pub phone: Option<String>,
    /// `true` marks this person as the company's billing contact (and clears the mark on
    /// the others); default (create) `false`.
    pub billing_contact: Option<bool>,
}

impl From<&Person> for NewPerson {
    /// The full body of a stored person (the base a partial update is merged onto).
    fn from(p: &Person) -> Self {
        NewPerson {
            firstname: Some(p.firstname.clone()),
            lastname: Some(p.lastname.clone()),
            email: p.email.clone(),
            company_id: p.company.as_ref().map(|c| c.id),
            gender: p.gender,
            salutation: p.salutation.clone(),
            job_position: p.job_position.clone(),
            phone: p.phone.clone(),
            billing_contact: Some(p.billing_contact),
        }
    }
}
